#!/usr/bin/env node
// onnxruntime-node behind the `sonnx certify --backend-cmd` process protocol:
//
//   node conformance/adapters/ort_adapter.js MODEL INPUT_DIR OUTPUT_DIR
//
// reads INPUT_DIR/input_K.pb (TensorProto) for the K-th graph input, runs the model on the CPU
// execution provider (1 thread), and writes OUTPUT_DIR/output_K.pb for the K-th graph output.
// Exit 0 on success; 3 when onnxruntime declines the model — its IR version or opset, an element
// type, an operator (version) it has no kernel for, a sequence/optional/map value — with the reason
// (onnxruntime's own words, without its source location) as the last line printed; 1 on any
// other error (REFUSALS lists the texts that count as declining).
//
//   node conformance/adapters/ort_adapter.js --serve
//
// speaks the persistent protocol instead (`--backend-cmd ... --persistent`, docs/backends.md): one
// process answers a JSON line per request, with the same refusals and messages; logs go to stderr.
//
// onnxruntime-node is loaded from bench/node_modules (`npm install --ignore-scripts` in bench/) or
// from SONNX_ORT_MODULE.
// TensorProto is read and written with a minimal protobuf codec below (no dependencies).
// `require`d as a module it runs nothing and exports the classification (tests/backends).
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const UNSUPPORTED = 3;

// ---------------------------------------------------------------------------------------------
// Protobuf wire format, just what TensorProto needs.

class Reader {
  constructor(buf) {
    this.buf = buf;
    this.pos = 0;
  }
  done() {
    return this.pos >= this.buf.length;
  }
  varint() {  // as BigInt (int64 fields may be negative: 10-byte two's complement)
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
    return BigInt.asUintN(64, result);
  }
  bytes() {
    const n = Number(this.varint());
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

// Reads a repeated scalar field that may be packed (wire 2) or not.
function readRepeated(r, wire, scalarWire, readOne, out) {
  if (wire === 2 && scalarWire !== 2) {
    const sub = new Reader(r.bytes());
    while (!sub.done()) out.push(readOne(sub));
  } else {
    out.push(readOne(r));
  }
}
const fixed32 = (r) => {
  const v = r.buf.readFloatLE(r.pos);
  r.pos += 4;
  return v;
};
const fixed64d = (r) => {
  const v = r.buf.readDoubleLE(r.pos);
  r.pos += 8;
  return v;
};

function parseTensorProto(buf) {
  const r = new Reader(buf);
  const t = { dims: [], dataType: 0, floats: [], int32s: [], strings: [], int64s: [], doubles: [], uint64s: [], raw: null, external: false };
  while (!r.done()) {
    const key = Number(r.varint());
    const field = key >>> 3;
    const wire = key & 7;
    switch (field) {
      case 1: readRepeated(r, wire, 0, (x) => Number(BigInt.asIntN(64, x.varint())), t.dims); break;
      case 2: t.dataType = Number(r.varint()); break;
      case 4: readRepeated(r, wire, 5, fixed32, t.floats); break;
      case 5: readRepeated(r, wire, 0, (x) => Number(BigInt.asIntN(32, x.varint())), t.int32s); break;
      case 6: t.strings.push(Buffer.from(r.bytes()).toString('utf8')); break;
      case 7: readRepeated(r, wire, 0, (x) => BigInt.asIntN(64, x.varint()), t.int64s); break;
      case 9: t.raw = r.bytes(); break;
      case 10: readRepeated(r, wire, 1, fixed64d, t.doubles); break;
      case 11: readRepeated(r, wire, 0, (x) => x.varint(), t.uint64s); break;
      case 13: t.external = true; r.skip(wire); break;
      default: r.skip(wire);
    }
  }
  return t;
}

// ONNX data type -> [onnxruntime type, typed array, field holding non-raw data]
const TYPES = {
  1: ['float32', Float32Array, 'floats'],
  2: ['uint8', Uint8Array, 'int32s'],
  3: ['int8', Int8Array, 'int32s'],
  4: ['uint16', Uint16Array, 'int32s'],
  5: ['int16', Int16Array, 'int32s'],
  6: ['int32', Int32Array, 'int32s'],
  7: ['int64', BigInt64Array, 'int64s'],
  8: ['string', null, 'strings'],
  9: ['bool', Uint8Array, 'int32s'],
  10: ['float16', Uint16Array, 'int32s'],
  11: ['float64', Float64Array, 'doubles'],
  12: ['uint32', Uint32Array, 'uint64s'],
  13: ['uint64', BigUint64Array, 'uint64s'],
};
const ONNX_TYPE = Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [v[0], Number(k)]));

class Unsupported extends Error {}

function tensorFromProto(ort, t) {
  const spec = TYPES[t.dataType];
  if (!spec) throw new Unsupported(`element type ${t.dataType} is not supported by the adapter`);
  if (t.external) throw new Unsupported('external data');
  const [ortType, Arr, field] = spec;
  const count = t.dims.reduce((a, b) => a * b, 1);
  let data;
  if (ortType === 'string') {
    data = t.strings;
  } else if (t.raw) {
    const ab = new ArrayBuffer(t.raw.length);
    new Uint8Array(ab).set(t.raw);
    data = new Arr(ab, 0, t.raw.length / Arr.BYTES_PER_ELEMENT);
  } else {
    const src = t[field];
    data = new Arr(src.length);
    for (let i = 0; i < src.length; ++i) data[i] = Arr === BigInt64Array || Arr === BigUint64Array ? BigInt(src[i]) : Number(src[i]);
  }
  if (ortType === 'bool') data = Uint8Array.from(data, (v) => (v ? 1 : 0));
  if (data.length !== count) throw new Error(`tensor has ${data.length} elements for dims [${t.dims}]`);
  return new ort.Tensor(ortType, data, t.dims);
}

// Writers
function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}
function lenField(field, buf) {
  return Buffer.concat([varint((field << 3) | 2), varint(buf.length), buf]);
}

function tensorToProto(t) {
  if (!(t.type in ONNX_TYPE)) throw new Unsupported(`output type ${t.type}`);
  const parts = [];
  for (const d of t.dims) parts.push(varint(1 << 3), varint(d));
  parts.push(varint(2 << 3), varint(ONNX_TYPE[t.type]));
  if (t.type === 'string') {
    for (const s of t.data) parts.push(lenField(6, Buffer.from(s, 'utf8')));
  } else if (t.type === 'bool') {
    parts.push(lenField(9, Buffer.from(Array.from(t.data, (v) => (v ? 1 : 0)))));
  } else {
    const d = t.data;
    parts.push(lenField(9, Buffer.from(d.buffer, d.byteOffset, d.byteLength)));
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------

function loadOrt() {
  const candidates = [process.env.SONNX_ORT_MODULE, path.join(__dirname, '..', '..', 'bench', 'node_modules', 'onnxruntime-node'), 'onnxruntime-node'];
  for (const c of candidates) {
    if (!c) continue;
    try {
      return require(c);
    } catch (e) {
      // try the next
    }
  }
  process.stderr.write('ort_adapter: cannot load onnxruntime-node (npm install --ignore-scripts in bench/)\n');
  process.exit(1);
}

// onnxruntime's texts for a model it declines rather than fails on.
const REFUSALS = [
  /Unsupported model IR version/i, // an IR version newer than it reads
  /Opset \d+ is under development/i, // an opset newer than its released ones ("support ... is limited")
  /only \*guarantees\* support for models stamped/i, // the same refusal, worded for other opsets
  /Could not find an implementation for/i, // no kernel for the operator version and element types
  /NOT_IMPLEMENTED|not implemented/i,
  /is not a registered function\/op/i, // an operator or domain it does not know
  /No opset import for domain/i,
  /Unsupported data type/i, // an element type onnxruntime-node cannot hold (float8, int4, ...)
  /Unrecognized attribute/i, // an attribute newer than its schema
  /Type \(.*\) of (input|output) (parameter|arg) .* is invalid/i, // an element type its schema does not allow
  /not supported|unsupported/i,
];

function isRefusal(message) {
  return REFUSALS.some((re) => re.test(message));
}

// onnxruntime's message without "Load model from PATH failed:" and the C++ source location and
// function signature it puts before the words that say what is wrong, on one line.
function conciseReason(message) {
  let m = String(message).replace(/\s+/g, ' ').trim();
  m = m.replace(/^Load model from .*? failed:\s*/, '');
  const location = /^\S+\.(?:cc|cpp|h):\d+ /.exec(m);
  if (location) {
    const open = m.indexOf('(', location[0].length);
    let depth = 0;
    for (let i = open; open >= 0 && i < m.length; ++i) {
      if (m[i] === '(') ++depth;
      else if (m[i] === ')' && --depth === 0) {
        m = m.slice(i + 1).replace(/^ const\b/, '').trim();
        break;
      }
    }
  }
  return m;
}

// An onnxruntime error, with the stage it came from (session creation or run).
class OrtError extends Error {
  constructor(stage, e) {
    super(e && e.message !== undefined ? String(e.message) : String(e));
    this.stage = stage;
  }
}

// The protocol's verdict on an error: a refusal with its reason (the adapter's, or onnxruntime's
// texts for a model it declines, REFUSALS), else an error with its message.
function outcome(e) {
  if (e instanceof Unsupported) return { status: 'unsupported', reason: `the adapter declines the model: ${e.message}` };
  if (e instanceof OrtError && isRefusal(e.message))
    return { status: 'unsupported', reason: `onnxruntime declines the model: ${conciseReason(e.message)}` };
  return { status: 'error', message: `ort_adapter: ${e instanceof OrtError ? `${e.stage}: ` : ''}${e.message}` };
}

// Runs the model on INPUT_DIR/input_K.pb and writes OUTPUT_DIR/output_K.pb; throws what outcome() judges.
async function runModel(ort, modelPath, inputDir, outputDir) {
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
    });
  } catch (e) {
    throw new OrtError('session', e);
  }
  try {
    for (const m of [...(session.inputMetadata || []), ...(session.outputMetadata || [])])
      if (m && m.isTensor === false) throw new Unsupported(`'${m.name}' is not a tensor`);
    const feeds = {};
    session.inputNames.forEach((name, k) => {
      const file = path.join(inputDir, `input_${k}.pb`);
      if (!fs.existsSync(file)) throw new Error(`missing ${file} for input '${name}'`);
      feeds[name] = tensorFromProto(ort, parseTensorProto(fs.readFileSync(file)));
    });
    let results;
    try {
      results = await session.run(feeds);
    } catch (e) {
      throw new OrtError('run', e);
    }
    session.outputNames.forEach((name, k) => {
      fs.writeFileSync(path.join(outputDir, `output_${k}.pb`), tensorToProto(results[name]));
    });
  } finally {
    // Nothing is kept from one model to the next (the persistent form runs many).
    if (typeof session.release === 'function') await session.release().catch(() => {});
  }
}

// One model per process: exit 0, 3 with the reason as the last line printed, or 1.
async function main() {
  const [modelPath, inputDir, outputDir] = process.argv.slice(2);
  if (!outputDir) {
    process.stderr.write('usage: node ort_adapter.js MODEL INPUT_DIR OUTPUT_DIR | node ort_adapter.js --serve\n');
    process.exit(1);
  }
  const ort = loadOrt();
  try {
    await runModel(ort, modelPath, inputDir, outputDir);
  } catch (e) {
    const o = outcome(e);
    process.stderr.write(`${o.status === 'unsupported' ? o.reason : o.message}\n`);
    process.exit(o.status === 'unsupported' ? UNSUPPORTED : 1);
  }
}

// The persistent protocol (docs/backends.md): the handshake, then for each request line
// {"id","model","inputs","outputs"} one reply line {"id","status":"ok"|"unsupported"|"error",...}.
// stdout carries nothing else (logs go to stderr); requests are answered one at a time, in order.
async function serve() {
  const ort = loadOrt();
  const send = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);  // synchronous on a pipe
  const version = (ort.env && ort.env.versions && ort.env.versions.node) || '';
  send({ sonnx_protocol: 1, name: 'onnxruntime-node', version });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`ort_adapter: not a request line: ${line}\n`);
      send({ id: null, status: 'error', message: 'ort_adapter: not a request line' });
      continue;
    }
    let reply;
    try {
      await runModel(ort, request.model, request.inputs, request.outputs);
      reply = { status: 'ok' };
    } catch (e) {
      reply = outcome(e);
    }
    send({ id: request.id, ...reply });
  }
  process.exit(0);  // stdin closed: sonnx is done
}

if (require.main === module) {
  (process.argv[2] === '--serve' ? serve() : main()).catch((e) => {
    process.stderr.write(`ort_adapter: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}

module.exports = { isRefusal, conciseReason };
