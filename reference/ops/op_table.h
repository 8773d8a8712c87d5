// What the operator table says about one node of a model: which operator version applies at the
// node's domain opset (the catalogue schema's since_version), whether a model-local function or the schema's
// function body defines it, which reference kernel runs it, and how its results are compared. The
// interpreter, the inliner, the compiler (optimized/plan), the backends, the conformance runner and
// the certifier all ask here; none of them resolves versions on its own.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/catalogue/catalogue.h"
#include "reference/model/ir.h"
#include "registry.h"

namespace sonnx {

struct OpResolution {
  int64_t version = 0;             // the schema's since_version (0 for model-local functions)
  bool is_local_function = false;  // a function of the model defines the operator (one that shadows no standard operator)
  bool has_schema = false;
  const catalogue::Schema* schema = nullptr;
  bool opset_known = true;              // the domain's opset is within the catalogue (a newer one may change any operator)
  bool has_function_body = false;       // a local function or a body of ours (spec/functions/)
  bool context_dependent = false;       // the body needs the call's input types ($elem_type)
  const KernelEntry* kernel = nullptr;  // the reference kernel for `version`; null: run the body
};

// A test mode (`sonnx conform --prefer-function-bodies`): where an operator version has both a
// kernel and a function body, resolve_op answers "no kernel", so that every consumer (interpreter,
// inliner, compiler) runs the body. Process-wide; off by default.
void set_prefer_function_bodies(bool prefer);
bool prefer_function_bodies();

// The opset a node runs under for its domain: its own (nodes expanded from a function body carry
// the function's) or else the model's import.
int64_t node_opset(const Model& model, const Node& node);
// The ai.onnx operators that sample random numbers (RandomNormal, Bernoulli, ...).
bool samples_random_numbers(const std::string& op_type);

// The standard operator a model-local function shadows: the catalogue's schema for the function's
// (domain, name) at the opset the model imports for that domain, or null. ONNX makes such a
// function a fallback implementation of that operator (IR.md, "Functions"), so the operator's
// standard meaning is what a call means: sonnx runs the operator and never the function's body
// (spec/functions.md §1, rule FUNC-SHADOWS-STANDARD).
const catalogue::Schema* shadowed_operator(const Model& model, const Function& fn);
// The model-local function a node calls: the model's function of the node's (domain, op_type),
// unless that function shadows a standard operator; null when the node calls none. Every part of
// sonnx that asks "is this node a call of a local function?" asks here (or resolve_op).
const Function* called_function(const Model& model, const Node& node);

OpResolution resolve_op(const Model& model, const Node& node, int64_t domain_opset);
// Whether sonnx can run the node: a model-local function, a kernel for the exact operator version
// or a function body for it, at an opset the catalogue knows. Otherwise `why` reads
// "unsupported: Op-N ..." (docs/design.md §2.3: a version we do not implement is refused by name).
bool runnable(const OpResolution& r, const Node& node, int64_t domain_opset, std::string& why);
inline OpResolution resolve_op(const Model& model, const Node& node) { return resolve_op(model, node, node_opset(model, node)); }

// The function body a node runs when it has no kernel: a model-local function, else sonnx's body
// of the operator version (spec/functions/, reference/functions/function_bodies.h): the first
// alternative whose guard holds for the node, `$elem_type(X)` taken from `input_types`. Returns
// false when there is none; `why` says what was looked for.
bool build_function_body(const Model& model, const Node& node, int64_t domain_opset, const std::vector<TypeInfo>& input_types,
                         Function& out, std::string& why);

// The accuracy class of one node: its kernel's; a node without a kernel of its own (it runs a
// function body) counts as rounding, or random when its operator's kernel samples.
Accuracy op_accuracy(const Model& model, const Node& node);
// The loosest accuracy class among the operators of g and its subgraphs, starting from `acc`:
// random > rounding > exact (docs/design.md §2.8).
Accuracy model_accuracy(const Model& model, const Graph& g, Accuracy acc = Accuracy::Exact);
inline Accuracy model_accuracy(const Model& model) { return model_accuracy(model, model.graph); }

// The operators g and its subgraphs use, sorted: "Op" for ai.onnx, "domain.Op" otherwise.
std::vector<std::string> op_types_of(const Graph& g);
// The operator versions the model's graph and its subgraphs select, sorted: "ReduceMax-18",
// "ai.onnx.preview.training.Adam-1"; an operator without a schema (or a model-local function) by
// its name alone.
std::vector<std::string> op_versions_of(const Model& model);

}  // namespace sonnx
