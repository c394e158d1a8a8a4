'use strict'
// bench.js's options: the rows every experiment shares, then each experiment's own
// (experiments/*/index.js), read by one schema (lib/option-schema.js). --help, every
// refusal, a resume's check of its stored options and the re-run commands come from them.
// The experiments are bench.js's to hand over (benchOptions(registry), the registry being
// experiments/index.js's exports): lib/ knows no experiment by itself.
const path = require('node:path')
const { ROOT } = require('./paths')
const { shellQuote } = require('./pipeline')
const { UsageError, wholeNumber, SAFE_NAME, SAFE_NAME_RULE } = require('./options')
const { parseCommandLine, refuseEmpty, optionsFrom, usageLines, storedOptionsProblem, rerunArgs, isWhole, isStrings } = require('./option-schema')

const DEFAULT_TIMEOUT_SECONDS = 120
const MAX_TIMEOUT_SECONDS = 86400

function benchOptions ({ experiments, byName, DEFAULT_EXPERIMENT }) {
  const sharedRows = [
    {
      name: 'experiment',
      type: 'string',
      metavar: 'E',
      takes: experiments.map(experiment => experiment.name).join(', ').replace(/, (\w+)$/, ' or $1'),
      stored: [value => value === undefined || byName(value) !== null, experiments.map(experiment => experiment.name).join(', ')]
    },
    {
      name: 'only',
      type: 'string',
      metavar: 'NAME',
      multiple: true,
      takes: 'a program\'s name, or a pattern such as \'node-*\'',
      help: [
        'this program, variant or server (repeatable; default: all); a name',
        'without \'@\' also picks its rows of --node\'s versions (node-sync:',
        'node-sync@22 ...), and \'*\' stands for any run of characters:',
        '--only \'node-*\', --only \'*-ffi\''
      ],
      preset: { default: [], quick: [] },
      stored: [isStrings, 'a list of names']
    },
    {
      name: 'quick',
      type: 'boolean',
      help: ['fewer runs, sizes and rounds: about 12 minutes on a slow 2-core VM (docs/method.md)']
    },
    {
      name: 'timeout',
      type: 'string',
      metavar: 'S',
      field: 'timeoutSeconds',
      takes: 'a whole number of seconds',
      help: ['seconds before one run counts as hung (default {default})'],
      // a day: a run hung longer is a mistake, and 1e20 s once reached pipe-run as "1e+23" ms,
      // which it read as 1
      parse: text => wholeNumber(text, 'timeout', 1, MAX_TIMEOUT_SECONDS),
      preset: { default: DEFAULT_TIMEOUT_SECONDS, quick: DEFAULT_TIMEOUT_SECONDS },
      stored: [isWhole(1), 'a whole number of at least 1'],
      rerun: true
    },
    { name: 'out', type: 'string', metavar: 'DIR', takes: 'a folder', help: ['where run folders go (default results/)'] },
    { name: 'id', type: 'string', metavar: 'NAME', takes: 'a name for the run folder', help: ['name of the run folder (default: the date and time)'] },
    { name: 'resume', type: 'string', metavar: 'ID', takes: 'a run folder (its path, or its name in results/)', help: ['continue an interrupted run (a run folder name or path)'] },
    { name: 'report', type: 'boolean', help: ['write the run\'s report with analyse.js when the bench is done'] },
    {
      name: 'list',
      type: 'boolean',
      help: [
        'list what the experiment runs, whether it can run here (and why not),',
        'and its command line; --json as JSON'
      ]
    },
    { name: 'json', type: 'boolean' },
    { name: 'help', type: 'boolean', help: ['this text'] }
  ]

  // Every row parseArgs must know: the shared ones, then each experiment's, once per name.
  function allRows () {
    const rows = [...sharedRows]
    for (const experiment of experiments) {
      for (const row of experiment.options) if (!rows.some(known => known.name === row.name)) rows.push(row)
    }
    return rows
  }

  function usage () {
    const lines = ['usage: node bench.js [options]', '  --experiment E     which experiment to run:']
    for (const experiment of experiments) {
      lines.push(`    ${experiment.name.padEnd(7)}${experiment.about[0]}`, ...experiment.about.slice(1).map(line => `           ${line}`))
    }
    lines.push(...usageLines(sharedRows.filter(row => row.name !== 'experiment')))
    for (const experiment of experiments) {
      lines.push(`options of --experiment ${experiment.name}:`, ...usageLines(experiment.options))
    }
    return lines.join('\n')
  }

  // The experiments that take an option, for the message that refuses it elsewhere.
  function ownersOf (name) {
    return experiments.filter(experiment => experiment.options.some(row => row.name === name)).map(experiment => experiment.name)
  }

  function parseOptions (argv) {
    const rows = allRows()
    const { values } = parseCommandLine(argv, rows, { tool: 'bench.js' })
    refuseEmpty(values, rows, name => name === 'resume' ? 'to start a new run' : 'for its default')
    if (values.help) return { help: true }
    const name = values.experiment ?? DEFAULT_EXPERIMENT
    const experiment = byName(name)
    if (!experiment) throw new UsageError(`--experiment must be ${sharedRows[0].takes}, not '${name}'`)
    const foreign = Object.keys(values).filter(key => !sharedRows.some(row => row.name === key) && !experiment.options.some(row => row.name === key))
    if (foreign.length) {
      const owners = ownersOf(foreign[0])
      const fix = `add --experiment ${owners.join(' or ')}, or drop --${foreign[0]}`
      throw new UsageError(`--${foreign[0]} is an option of the ${owners.join(' and ')} experiment${owners.length === 1 ? '' : 's'}, not of ${name}: ${fix}; see node bench.js --help`)
    }
    if (values.list || values.json) {
      const takes = ['list', 'json', 'experiment', ...experiment.options.filter(row => row.list).map(row => row.name)]
      const others = Object.keys(values).filter(key => !takes.includes(key))
      if (!values.list) throw new UsageError('--json goes with --list')
      if (others.length) throw new UsageError(`--list takes only ${takes.filter(key => !['list', 'experiment'].includes(key)).map(key => `--${key}`).join(', ').replace(/, ([^,]+)$/, ' and $1')}; drop ${others.map(key => `--${key}`).join(', ')}`)
      return { list: true, json: Boolean(values.json), experiment: name, values }
    }
    if (values.resume) {
      const others = Object.keys(values).filter(key => !['resume', 'report', 'experiment'].includes(key))
      if (others.length) throw new UsageError(`--resume continues a run with its own options; drop ${others.map(key => `--${key}`).join(', ')}`)
      // --experiment may be given with it, but must name the run's (lib/run-folder.js)
      return { resume: values.resume, report: Boolean(values.report), experiment: values.experiment ?? null }
    }
    const preset = values.quick ? 'quick' : 'default'
    const id = values.id ?? `${name === DEFAULT_EXPERIMENT ? '' : `${name}-`}${new Date().toISOString().replace(/\.\d+Z$/, '').replace(/[:T]/g, '-')}`
    if (!SAFE_NAME.test(id)) throw new UsageError(`--id '${id}' names a folder: use ${SAFE_NAME_RULE}`)
    const shared = optionsFrom(values, sharedRows.filter(row => row.preset), preset)
    const unmatchable = shared.only.find(pattern => !SAFE_NAME.test(pattern.replaceAll('*', '_')))
    if (unmatchable !== undefined) throw new UsageError(`--only '${unmatchable}' can match no program: a program's name is ${SAFE_NAME_RULE}`)
    const options = {
      experiment: name,
      preset,
      ...shared,
      out: path.resolve(values.out ?? path.join(ROOT, 'results')),
      id,
      report: Boolean(values.report),
      ...optionsFrom(values, experiment.options, preset)
    }
    return experiment.configure(options, values)
  }

  // What a resumed run's context.json holds wrongly for its experiment, or null.
  function storedProblem (options) {
    const experiment = byName(options.experiment ?? DEFAULT_EXPERIMENT)
    if (!experiment) return `has options.experiment ${JSON.stringify(options.experiment)}, not ${sharedRows[0].stored[1]}`
    const derived = Object.entries(experiment.stored).map(([field, stored]) => ({ name: field, field, stored }))
    return storedOptionsProblem(options, [...sharedRows, ...experiment.options, ...derived], experiment.later)
  }

  // A resumed run's options: those it stored, with what older runs lack.
  function resumedOptions (stored) {
    const experiment = byName(stored.experiment ?? DEFAULT_EXPERIMENT)
    return { experiment: experiment.name, ...experiment.later, ...stored }
  }

  // The bench that measures a failed cell again as this run did.
  function rerunCommand (options, failure, runnable) {
    const experiment = byName(options.experiment)
    const { env, args } = experiment.rerun(options, failure, runnable)
    const all = [
      ...(experiment.name === DEFAULT_EXPERIMENT ? [] : ['--experiment', experiment.name]),
      ...(options.preset === 'quick' ? ['--quick'] : []),
      ...args,
      ...rerunArgs(options, sharedRows, options.preset)
    ]
    return `${env}node bench.js ${shellQuote(all.map(String))}`
  }

  return { parseOptions, usage, storedProblem, resumedOptions, rerunCommand }
}

module.exports = { benchOptions }
