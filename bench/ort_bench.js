#!/usr/bin/env node
// Times a model under onnxruntime-node (CPU execution provider) the way `sonnx bench` times it:
// one untimed warm-up run, then RUNS timed runs; prints one JSON line with the median and minimum
// in ms and the process's peak resident memory.
//
//   node bench/ort_bench.js MODEL --shape 1,3,224,224 [--threads N] [--runs R]
//
// The model must have one float32 input; it gets values uniform in [-1, 1) from a fixed seed.
'use strict';

function usage(msg) {
  if (msg) process.stderr.write(`ort_bench: ${msg}\n`);
  process.stderr.write('usage: node ort_bench.js MODEL --shape D0,D1,... [--threads N] [--runs R]\n');
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  let model = null, shape = null, threads = 1, runs = 20;
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--shape') shape = args[++i].split(',').map(Number);
    else if (args[i] === '--threads') threads = Number(args[++i]);
    else if (args[i] === '--runs') runs = Number(args[++i]);
    else if (args[i] === '--help' || args[i] === '-h') usage();
    else if (model === null) model = args[i];
    else usage(`unexpected argument '${args[i]}'`);
  }
  if (!model || !shape || shape.some((d) => !Number.isInteger(d) || d < 0)) usage('need MODEL and --shape');
  if (!(threads >= 1) || !(runs >= 1)) usage('--threads and --runs must be positive');
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    usage(`cannot load onnxruntime-node (run 'npm install --ignore-scripts' in bench/): ${e.message}`);
  }
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  let seed = 12345;
  for (let i = 0; i < count; ++i) {
    seed = (seed * 1103515245 + 12345) % 2147483648;  // a small LCG: reproducible, no dependency
    data[i] = (seed / 2147483648) * 2 - 1;
  }
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', data, shape) };
  await session.run(feeds);  // warm-up
  const ms = [];
  for (let r = 0; r < runs; ++r) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const n = ms.length;
  const median = n % 2 ? ms[(n - 1) / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  process.stdout.write(JSON.stringify({
    model, executor: 'onnxruntime-node', threads, runs, median_ms: median, min_ms: ms[0],
    max_rss_bytes: process.resourceUsage().maxRSS * 1024,
  }) + '\n');
}

main().catch((e) => {
  process.stderr.write(`ort_bench: ${e.message}\n`);
  process.exit(1);
});
