'use strict'
// Options described once. A tool's options are rows of a schema; its usage text, its
// parsing and every error message about an option, the check of a resumed run's stored
// options and the options of a re-run command all come from the rows. A row:
//   name      the flag without '--'
//   type      'string' or 'boolean' (parseArgs's); multiple: true to repeat it
//   takes     what a string option takes, for the messages that ask for it
//   help      its lines in the usage text ({default} and {quick}: the presets' values)
//   field     where its value goes in the options (default: the name in camelCase)
//   parse     text => the value; throws a UsageError naming the fix. A boolean row's
//             parse gets true and gives the value its flag means
//   preset    { default, quick }: the value when the option is not given
//   stored    [check(value), what]: how a resumed run's context.json must hold the
//             field, and what the message says it must be
//   rerun     true: a re-run command repeats it when its value is not the preset's
//   get       options => its value, where configure moved it from its field
const { parseArgs } = require('node:util')
const { UsageError } = require('./options')

function fieldOf (row) {
  return row.field ?? row.name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase())
}

// parseArgs's options for the rows: one row per name, whatever experiments share it.
function parseArgsSpec (rows) {
  const spec = {}
  for (const row of rows) spec[row.name] = { type: row.type, ...(row.multiple ? { multiple: true } : {}) }
  return spec
}

// parseArgs with its errors as one line each that says what to do; a value that begins
// with '-' after a space (a forgotten value?) is read as the option's own when it is a
// negative number, so that the option's check refuses it in its own words.
function parseCommandLine (argv, rows, { tool, positionals = false }) {
  const takes = name => rows.find(row => row.name === name)?.takes ?? 'a value'
  let parsed
  try {
    const spec = { args: argv, options: parseArgsSpec(rows), strict: true, allowPositionals: positionals }
    parsed = parseArgs({ ...spec, tokens: true })
  } catch (err) {
    const unknown = /Unknown option '([^']+)'/.exec(err.message)
    if (unknown) throw new UsageError(`unknown option ${unknown[1]}; see node ${tool} --help`)
    const missing = /Option '--([\w-]+)[^']*' argument missing/.exec(err.message)
    if (missing) throw new UsageError(`--${missing[1]} needs ${takes(missing[1])}; see node ${tool} --help`)
    const ambiguous = /Option '--([\w-]+)' argument is ambiguous/.exec(err.message)
    if (ambiguous) {
      const at = argv.findIndex((arg, i) => arg === `--${ambiguous[1]}` && argv[i + 1]?.startsWith('-'))
      const value = argv[at + 1]
      if (/^-\d/.test(value)) return parseCommandLine([...argv.slice(0, at), `--${ambiguous[1]}=${value}`, ...argv.slice(at + 2)], rows, { tool, positionals })
      throw new UsageError(`--${ambiguous[1]} needs ${takes(ambiguous[1])}, not '${value}'; a value that begins with '-' is written --${ambiguous[1]}=${value}`)
    }
    throw new UsageError(`${err.message.split('\n')[0].split('.')[0]}; see node ${tool} --help`)
  }
  refuseRepeats(parsed.tokens, rows)
  return { values: parsed.values, positionals: parsed.positionals }
}

// parseArgs keeps the last of an option given twice: `--experiment stdio --experiment http`
// would run http, and `--runs 0 --runs 3` would hide its refused first value. An option
// that is not a list is given once.
function refuseRepeats (tokens, rows) {
  const seen = new Map()
  for (const token of tokens.filter(each => each.kind === 'option')) {
    if (rows.find(row => row.name === token.name)?.multiple) continue
    const value = token.value === undefined ? `--${token.name}` : `'${token.value}'`
    if (seen.has(token.name)) {
      throw new UsageError(`--${token.name} is given twice (${seen.get(token.name)} and ${value}); give it once`)
    }
    seen.set(token.name, value)
  }
}

// An empty value is a mistake (an unset shell variable, a stray quote), never a way to
// ask for the default.
function refuseEmpty (values, rows, emptyFix = () => 'for its default') {
  for (const [name, value] of Object.entries(values)) {
    if ([value].flat().some(text => typeof text === 'string' && text.trim() === '')) {
      const takes = rows.find(row => row.name === name)?.takes ?? 'a value'
      throw new UsageError(`--${name} is empty; give ${takes}, or leave --${name} out ${emptyFix(name)}`)
    }
  }
}

// The options the rows make of parseArgs's values under a preset: each row's parsed
// value, or its preset's.
function optionsFrom (values, rows, preset) {
  const options = {}
  for (const row of rows) {
    const given = values[row.name]
    if (given !== undefined && row.parse) options[fieldOf(row)] = row.parse(given)
    else if (given !== undefined) options[fieldOf(row)] = given
    else if (row.preset) options[fieldOf(row)] = row.preset[preset]
  }
  return options
}

// The usage lines of rows: the flag and what it takes, then its help, {default} and
// {quick} filled in from its preset.
function usageLines (rows) {
  const lines = []
  for (const row of rows.filter(entry => entry.help)) {
    const flag = `  --${row.name}${row.type === 'string' ? ` ${row.metavar ?? 'X'}` : ''}`
    const text = row.help.map(line => line.replace('{default}', shown(row.preset?.default)).replace('{quick}', shown(row.preset?.quick)))
    const rest = text.map(line => `${''.padEnd(21)}${line}`)
    if (flag.length >= 20) lines.push(flag, ...rest)
    else lines.push(`${flag.padEnd(21)}${text[0]}`, ...rest.slice(1))
  }
  return lines
}

const shown = value => Array.isArray(value) ? value.join(',') : String(value)

// What a resumed run's stored options lack or hold wrongly, by the rows' `stored`
// checks, as the rest of a sentence; null when all is well. `later` holds the fields
// added after runs had been made: an older run lacks them, and ran as these say.
function storedOptionsProblem (options, rows, later = {}) {
  for (const row of rows.filter(entry => entry.stored)) {
    const field = fieldOf(row)
    const [valid, what] = row.stored
    if (options[field] === undefined && field in later) continue
    if (!valid(options[field])) return `has options.${field} ${JSON.stringify(options[field]) ?? 'missing'}, not ${what}`
  }
  return null
}

// The flags that give `options` again where they differ from the preset's: the rows
// marked rerun, in their order.
function rerunArgs (options, rows, preset) {
  const args = []
  for (const row of rows.filter(entry => entry.rerun)) {
    const value = row.get ? row.get(options) : options[fieldOf(row)]
    const byDefault = row.preset?.[preset]
    if (value === undefined || JSON.stringify(value) === JSON.stringify(byDefault)) continue
    if (row.type === 'boolean') args.push(`--${row.name}`)
    else if (value !== null) args.push(`--${row.name}`, shown(value))
  }
  return args
}

// The checks rows' `stored` fields use most.
const isWhole = min => value => Number.isInteger(value) && value >= min
const isBoolean = value => typeof value === 'boolean'
const isStrings = value => Array.isArray(value) && value.every(item => typeof item === 'string')

// A --no-<pass> flag: the pass runs unless it is given, and a re-run skips it again.
function skipRow (pass, help) {
  return { name: `no-${pass}`, type: 'boolean', field: pass, help: [help], parse: () => false, preset: { default: true, quick: true }, stored: [isBoolean, 'true or false'], rerun: true }
}

// An option that takes one of `choices` (the first the default), refused otherwise in one
// line that names them all: --feeder, --cost-pairing, --ladder-pairing.
function choiceRow ({ name, choices, help }) {
  const takes = `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}`
  return {
    name,
    type: 'string',
    metavar: 'MODE',
    takes,
    help,
    parse: text => {
      if (!choices.includes(text)) throw new UsageError(`--${name} must be ${takes}, not '${text}'`)
      return text
    },
    preset: { default: choices[0], quick: choices[0] },
    stored: [value => choices.includes(value), takes],
    rerun: true
  }
}

module.exports = { parseCommandLine, refuseEmpty, optionsFrom, usageLines, storedOptionsProblem, rerunArgs, skipRow, choiceRow, isWhole, isBoolean, isStrings }
