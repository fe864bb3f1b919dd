// Measures the reference renderer core, @a2ui/web_core 0.11's v0.9
// MessageProcessor, on the lists of a model-output corpus the way
// bench/cmd/procrate measures ours: every <a2ui-json> block is one list, all
// lists are applied in order to a fresh processor per round, and the rate is
// messages per second of process CPU time (user + system, all threads, as Go's
// getrusage(RUSAGE_SELF)), the median of several rounds after warm-up rounds
// that let the JIT settle. A round repeats whole passes over the corpus (a
// fresh processor each) until -mintime seconds of CPU time have gone into
// them.
//
// Modes:
//   none   a catalog with the basic catalog's id and no component APIs, so
//          processMessages validates no component properties;
//   basic  the package's basicCatalog, whose Zod schemas validate every
//          component's properties.
//
// Two figures per mode: "parse" times JSON.parse of each list plus
// processMessages (what a renderer does with a list that arrives as text, and
// what our processor does: it takes the raw bytes); "apply" times
// processMessages alone on lists parsed before the round's clock starts.
//
// processMessages stops a list at the first message that throws; a check pass
// before timing applies every message on its own and reports what fails.
//
// usage: node webcore_processor.mjs [-mode none|basic] [-rounds 9] [-warmup 2] [-mintime 0.2] FILE
import { readFileSync } from 'node:fs';
import { Catalog, MessageProcessor } from '@a2ui/web_core/v0_9';
import { basicCatalog } from '@a2ui/web_core/v0_9/basic_catalog';

function usage() {
  console.error('usage: node webcore_processor.mjs [-mode none|basic] [-rounds N] [-warmup N] [-mintime SECONDS] FILE');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { mode: 'none', rounds: 9, warmup: 2, mintime: 0.2, file: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-mode' || a === '-rounds' || a === '-warmup' || a === '-mintime') {
      if (i + 1 >= argv.length) usage();
      const v = argv[++i];
      if (a === '-mode') opts.mode = v;
      else opts[a.slice(1)] = Number(v);
    } else if (a.startsWith('-')) {
      usage();
    } else if (opts.file === '') {
      opts.file = a;
    } else {
      usage();
    }
  }
  if (!['none', 'basic'].includes(opts.mode) || !(opts.rounds > 0) || !(opts.warmup >= 0) || !(opts.mintime >= 0) || opts.file === '') {
    usage();
  }
  return opts;
}

// blocks returns the payloads of the <a2ui-json> blocks of a stream, in
// order, as bench.Blocks does.
function blocks(stream) {
  const open = '<a2ui-json>';
  const close = '</a2ui-json>';
  const out = [];
  let pos = 0;
  for (;;) {
    const i = stream.indexOf(open, pos);
    if (i < 0) return out;
    const start = i + open.length;
    const j = stream.indexOf(close, start);
    if (j < 0) return out;
    out.push(stream.slice(start, j));
    pos = j + close.length;
  }
}

function newProcessor(mode) {
  const catalog = mode === 'basic' ? basicCatalog : new Catalog(basicCatalog.id, []);
  return new MessageProcessor([catalog]);
}

function cpuMicros() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// check applies every message on its own (so one failure does not hide the
// rest) and counts failures by error text; it also counts the lists that
// processMessages, applied list by list, stops early.
function check(mode, lists) {
  const byText = new Map();
  let failedMsgs = 0;
  const p = newProcessor(mode);
  for (const text of lists) {
    for (const m of JSON.parse(text)) {
      try {
        p.processMessages([m]);
      } catch (e) {
        failedMsgs++;
        const key = `${e.constructor.name}: ${String(e.message).slice(0, 160)}`;
        byText.set(key, (byText.get(key) ?? 0) + 1);
      }
    }
  }
  let stoppedLists = 0;
  const q = newProcessor(mode);
  for (const text of lists) {
    try {
      q.processMessages(JSON.parse(text));
    } catch {
      stoppedLists++;
    }
  }
  return { failedMsgs, stoppedLists, byText };
}

// pass applies all lists to a fresh processor; only the processing is
// inside [c0, c1) when includeParse is false, so it returns the CPU and wall
// time of its timed part.
function pass(mode, lists, includeParse) {
  const p = newProcessor(mode);
  const parsed = includeParse ? null : lists.map((t) => JSON.parse(t));
  const c0 = cpuMicros();
  const w0 = process.hrtime.bigint();
  for (let i = 0; i < lists.length; i++) {
    try {
      p.processMessages(includeParse ? JSON.parse(lists[i]) : parsed[i]);
    } catch {
      // counted by check; a real renderer would log it
    }
  }
  const wall = Number(process.hrtime.bigint() - w0) / 1e9;
  const cpu = (cpuMicros() - c0) / 1e6;
  return { cpu, wall };
}

// round repeats passes until minSeconds of CPU time have gone into them, so
// that a round is long enough for the clock and the garbage collector to
// average out, and returns its messages per CPU second and per wall second.
function round(mode, lists, nMsgs, includeParse, minSeconds) {
  let cpu = 0;
  let wall = 0;
  let passes = 0;
  while (cpu < minSeconds || passes === 0) {
    const t = pass(mode, lists, includeParse);
    cpu += t.cpu;
    wall += t.wall;
    passes++;
  }
  return { cpu: (nMsgs * passes) / Math.max(cpu, 1e-6), wall: (nMsgs * passes) / Math.max(wall, 1e-9) };
}

function measure(mode, lists, nMsgs, opts, includeParse) {
  for (let r = 0; r < opts.warmup; r++) round(mode, lists, nMsgs, includeParse, opts.mintime);
  const cpuRates = [];
  const wallRates = [];
  for (let r = 0; r < opts.rounds; r++) {
    const t = round(mode, lists, nMsgs, includeParse, opts.mintime);
    cpuRates.push(t.cpu);
    wallRates.push(t.wall);
  }
  return { cpu: median(cpuRates), wall: median(wallRates) };
}

const opts = parseArgs(process.argv.slice(2));
const lists = blocks(readFileSync(opts.file, 'utf8'));
let nMsgs = 0;
for (const t of lists) {
  const l = JSON.parse(t);
  if (!Array.isArray(l)) {
    console.error('corpus block is not a list');
    process.exit(1);
  }
  nMsgs += l.length;
}

// The processor logs each component validation failure with console.error;
// keep the check pass and the rounds quiet and report the failures instead.
const consoleError = console.error;
console.error = () => {};
const c = check(opts.mode, lists);
const withParse = measure(opts.mode, lists, nMsgs, opts, true);
const applyOnly = measure(opts.mode, lists, nMsgs, opts, false);
console.error = consoleError;

const f0 = (x) => x.toFixed(0);
console.log(
  `${f0(withParse.cpu)} msgs/s parse+apply by CPU (wall ${f0(withParse.wall)}); ` +
    `${f0(applyOnly.cpu)} msgs/s apply only by CPU (wall ${f0(applyOnly.wall)}); ` +
    `mode ${opts.mode}, ${lists.length} lists, ${nMsgs} messages, ${c.failedMsgs} failed alone, ` +
    `${c.stoppedLists} lists stopped early, median of ${opts.rounds} rounds of >= ${opts.mintime}s after ${opts.warmup} warm-up, node ${process.version}`,
);
for (const [text, n] of c.byText) {
  console.log(`  ${n}× ${text}`);
}
