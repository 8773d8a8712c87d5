#!/usr/bin/env node
// Runs an ONNX model under onnxruntime-node (CPU, 1 thread) on .npy inputs and writes every output
// as .npy, so scripts/compare-real-models.sh can compare it with `sonnx run --output-format npy`.
//
//   node bench/ort_run.js MODEL INPUT_DIR OUTPUT_DIR [--opt-level disabled|basic|extended|all]
//
// INPUT_DIR holds one <name>.npy per graph input, <name> sanitized as `sonnx run` does for outputs
// (characters other than [A-Za-z0-9_.-] become '_'). Each output is written as
// OUTPUT_DIR/<sanitized output name>.npy. Prints one JSON line on stdout with the run time.
// Install with `npm install --ignore-scripts` in bench/ (the native binary ships in the package).
'use strict';

const fs = require('fs');
const path = require('path');

// ---------------------------------------------------------------------------------------------
// .npy (format 1.0-3.0, little-endian, C order)

// numpy descr <-> onnxruntime tensor type and typed array
const NPY_TYPES = {
  '<f4': { ort: 'float32', array: Float32Array },
  '<f8': { ort: 'float64', array: Float64Array },
  '<f2': { ort: 'float16', array: Uint16Array },
  '|i1': { ort: 'int8', array: Int8Array },
  '|u1': { ort: 'uint8', array: Uint8Array },
  '<i2': { ort: 'int16', array: Int16Array },
  '<u2': { ort: 'uint16', array: Uint16Array },
  '<i4': { ort: 'int32', array: Int32Array },
  '<u4': { ort: 'uint32', array: Uint32Array },
  '<i8': { ort: 'int64', array: BigInt64Array },
  '<u8': { ort: 'uint64', array: BigUint64Array },
  '|b1': { ort: 'bool', array: Uint8Array },
};
// A few spellings numpy also accepts for the same thing.
const DESCR_ALIASES = { '|b1': '|b1', '<b1': '|b1', '|i1': '|i1', '<i1': '|i1', '|u1': '|u1', '<u1': '|u1' };

function sanitize(name) {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}

function readNpy(file) {
  const buf = fs.readFileSync(file);
  const fail = (why) => new Error(`${file}: not a readable .npy file: ${why}`);
  if (buf.length < 10 || buf[0] !== 0x93 || buf.toString('latin1', 1, 6) !== 'NUMPY') throw fail('missing magic');
  const major = buf[6];
  let headerLen, headerStart;
  if (major === 1) {
    headerLen = buf.readUInt16LE(8);
    headerStart = 10;
  } else if (major === 2 || major === 3) {
    if (buf.length < 12) throw fail('truncated header');
    headerLen = buf.readUInt32LE(8);
    headerStart = 12;
  } else {
    throw fail(`unknown version ${major}`);
  }
  if (headerStart + headerLen > buf.length) throw fail('truncated header');
  const header = buf.toString(major === 3 ? 'utf8' : 'latin1', headerStart, headerStart + headerLen);
  const descrMatch = /'descr'\s*:\s*'([^']*)'/.exec(header);
  if (!descrMatch) throw fail('no descr');
  let descr = descrMatch[1];
  if (descr in DESCR_ALIASES) descr = DESCR_ALIASES[descr];
  const type = NPY_TYPES[descr];
  if (!type) throw fail(`unsupported dtype '${descr}'`);
  if (/'fortran_order'\s*:\s*True/.test(header)) throw fail('Fortran order is not supported');
  const shapeMatch = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!shapeMatch) throw fail('no shape');
  const dims = (shapeMatch[1].match(/\d+/g) || []).map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const dataStart = headerStart + headerLen;
  const bytes = count * type.array.BYTES_PER_ELEMENT;
  if (buf.length - dataStart !== bytes) throw fail(`data size ${buf.length - dataStart} does not match shape (${dims})`);
  // Copy into a fresh, aligned ArrayBuffer.
  const ab = new ArrayBuffer(bytes);
  new Uint8Array(ab).set(buf.subarray(dataStart, dataStart + bytes));
  return { ortType: type.ort, dims, data: new type.array(ab) };
}

function writeNpy(file, ortType, dims, data) {
  const descr = Object.keys(NPY_TYPES).find((d) => NPY_TYPES[d].ort === ortType);
  if (!descr) throw new Error(`cannot write tensor type ${ortType} as .npy`);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre[0] = 0x93;
  pre.write('NUMPY', 1, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  let body;
  if (ortType === 'bool') {
    body = Buffer.from(Array.from(data, (v) => (v ? 1 : 0)));
  } else {
    const arr = ArrayBuffer.isView(data) ? data : new NPY_TYPES[descr].array(data);
    body = Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength);
  }
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), body]));
}

// ---------------------------------------------------------------------------------------------

function usage(msg) {
  if (msg) process.stderr.write(`ort_run: ${msg}\n`);
  process.stderr.write('usage: node ort_run.js MODEL INPUT_DIR OUTPUT_DIR [--opt-level disabled|basic|extended|all]\n');
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  const positional = [];
  let optLevel = 'all';
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--opt-level') optLevel = args[++i];
    else if (args[i] === '--help' || args[i] === '-h') usage();
    else positional.push(args[i]);
  }
  if (positional.length !== 3) usage('expected MODEL INPUT_DIR OUTPUT_DIR');
  if (!['disabled', 'basic', 'extended', 'all'].includes(optLevel)) usage(`bad --opt-level '${optLevel}'`);
  const [modelPath, inputDir, outputDir] = positional;

  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    process.stderr.write(`ort_run: cannot load onnxruntime-node (run 'npm install --ignore-scripts' in bench/): ${e.message}\n`);
    process.exit(2);
  }

  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: optLevel,
  });

  const feeds = {};
  for (const name of session.inputNames) {
    const file = path.join(inputDir, `${sanitize(name)}.npy`);
    if (!fs.existsSync(file)) {
      process.stderr.write(`ort_run: missing input '${name}' (expected ${file})\n`);
      process.exit(2);
    }
    const t = readNpy(file);
    feeds[name] = new ort.Tensor(t.ortType, t.data, t.dims);
  }

  const start = process.hrtime.bigint();
  const results = await session.run(feeds);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;

  fs.mkdirSync(outputDir, { recursive: true });
  const written = [];
  for (const name of session.outputNames) {
    const t = results[name];
    const file = path.join(outputDir, `${sanitize(name)}.npy`);
    writeNpy(file, t.type, t.dims.map(Number), t.data);
    written.push({ name, type: t.type, dims: t.dims.map(Number), file });
  }
  process.stdout.write(JSON.stringify({ model: modelPath, ort_version: ort.env.versions ? ort.env.versions.common : undefined,
                                        time_ms: ms, outputs: written }) + '\n');
}

main().catch((e) => {
  process.stderr.write(`ort_run: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
