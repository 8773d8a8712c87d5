#!/usr/bin/env node
// The onnxruntime adapter's classification (conformance/adapters/ort_adapter.js): onnxruntime's texts
// for a model it declines — IR version, an opset under development, no kernel for an operator
// version, an unknown operator, an element type — are refusals (exit 3, `unsupported`), reported
// without the C++ source location; a genuine error is not. The texts are onnxruntime-node 1.30's own.
// Usage: node ort_refusals_test.js (needs no onnxruntime: only the classification is loaded)
'use strict';
const assert = require('assert');
const path = require('path');
const { isRefusal, conciseReason } = require(path.join(__dirname, '..', '..', 'conformance', 'adapters', 'ort_adapter.js'));

const sig = 'onnxruntime::Model::Model(onnx::ModelProto&&, const onnxruntime::PathString&, ' +
  'const onnxruntime::IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, const onnxruntime::ModelOptions&)';
const refusals = [
  [`Load model from /t/ir14.onnx failed:/onnxruntime_src/onnxruntime/core/graph/model.cc:202 ${sig} Unsupported model IR version: 14, max supported IR version: 13\n`,
    'Unsupported model IR version: 14, max supported IR version: 13'],
  ['Load model from /t/opset30.onnx failed:/onnxruntime_src/onnxruntime/core/graph/model_load_utils.h:46 void ' +
    'onnxruntime::model_load_utils::ValidateOpsetForDomain(const std::unordered_map<std::__cxx11::basic_string<char>, int>&, ' +
    'const onnxruntime::logging::Logger&, bool, const std::string&, int) ONNX Runtime only *guarantees* support for models ' +
    'stamped with official released onnx opset versions. Opset 30 is under development and support for this is limited.',
    'ONNX Runtime only *guarantees* support for models stamped with official released onnx opset versions. Opset 30 is under development and support for this is limited.'],
  ["Could not find an implementation for Cast(24) node with name ''", "Could not find an implementation for Cast(24) node with name ''"],
  ['[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for Add(1) node with name \'\'', null],
  ['Load model from /t/m.onnx failed:Fatal error: ai.onnx.preview.training:Adam(-1) is not a registered function/op',
    'Fatal error: ai.onnx.preview.training:Adam(-1) is not a registered function/op'],
  ['Unsupported data type: 17', 'Unsupported data type: 17'],
];
for (const [message, reason] of refusals) {
  assert.ok(isRefusal(message), `not a refusal: ${message}`);
  if (reason !== null) assert.strictEqual(conciseReason(message), reason);
}
const errors = [
  'Non-zero status code returned while running Attention node. Name:\'\' Status Message: inconsistent total_sequence_length ' +
    '(between attn_mask and past_key and past_value)',
  'Non-zero status code returned while running Add node. Name:\'\' Status Message: Attempting to broadcast an axis by a ' +
    'dimension other than 1. 2 by 3',
  'input \'x\' is missing',
];
for (const message of errors) assert.ok(!isRefusal(message), `a genuine error taken for a refusal: ${message}`);
console.log('ort_refusals: ok');
