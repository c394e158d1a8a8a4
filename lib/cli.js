'use strict'
// How every command-line tool of the lab (bench.js, analyse.js, the studies' tools)
// starts and ends, so that all answer alike: parse → run → exit code.
//   parse(argv)      the options, or { help: true }: the usage on stdout, exit 0
//   run(options, stopped)
//                    the tool's work, resolving to its exit code; a tool that measures
//                    (measures: true) is told by stopped() that Ctrl-C or SIGTERM asked it
//                    to stop: the run in flight is stopped, the tool says what it kept, and
//                    the exit code is 130 whatever it returns
// A UsageError is one line on stderr naming the fix, exit 2; a RunFailed (a run that
// miscounted, crashed or hung) one line naming its command, exit 1; anything else is a
// bug of the lab's: its stack, exit 1.
const { UsageError } = require('./options')
const { stopOnSignals } = require('./pipeline')

const EXIT = { done: 0, failed: 1, usage: 2, interrupted: 130 }

class RunFailed extends Error {}

async function runTool ({ name, usage, parse, run, measures = false }, argv) {
  let stopped = () => false
  try {
    const options = parse(argv)
    if (options.help) {
      process.stdout.write(`${usage}\n`)
      return EXIT.done
    }
    if (measures) stopped = stopOnSignals()
    const code = await run(options, stopped)
    return stopped() ? EXIT.interrupted : code
  } catch (err) {
    // a stop that made the work in flight fail is still a stop
    if (stopped()) {
      process.stderr.write(`${name}: stopped (${err.message.split('\n')[0]})\n`)
      return EXIT.interrupted
    }
    if (err instanceof UsageError) process.stderr.write(`${name}: ${err.message}\n`)
    else if (err instanceof RunFailed) process.stderr.write(`${name}: ${err.message}\n`)
    else process.stderr.write(`${name}: ${err.stack}\n`)
    return err instanceof UsageError ? EXIT.usage : EXIT.failed
  }
}

// The tool's process ends with the code: stdout and stderr are drained first, which
// process.exit() would cut short when they are pipes.
function runCli (tool) {
  runTool(tool, process.argv.slice(2)).then(code => { process.exitCode = code })
}

// A file beside the tools that is not one (a shared module, a preload, a table of rows),
// run by hand, with --help or anything else: one line saying what it is and what to run
// instead, exit 2, as a tool given a wrong command line ends.
function notACommand (name, whatInstead) {
  process.stderr.write(`${name} is not a command: ${whatInstead}\n`)
  process.exitCode = EXIT.usage
}

module.exports = { runCli, runTool, RunFailed, notACommand }
