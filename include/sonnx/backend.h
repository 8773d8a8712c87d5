/* sonnx backend plugin ABI, version 2 (version 1 tables are still accepted).
 *
 * A backend is a shared library that exports one C function, SONNX_BACKEND_ENTRY
 * ("sonnx_backend_get"), returning a table of callbacks. sonnx loads it with dlopen, asks it which
 * operators it runs (capabilities), hands it subgraphs to compile (prepare), runs them (execute) and
 * frees what it made (release_tensor, release). Everything crossing the boundary is plain C: names
 * are NUL-terminated UTF-8, element types are ONNX TensorProto.DataType numbers, tensors are dense
 * row-major buffers.
 *
 * Stability: fields are only ever appended. The host asks for the newest version it speaks
 * (sonnx_backend_get(2)) and, given NULL, for version 1; it reads a field only when the table's
 * abi_version is at least the version that added it (device_type: 2). Memory: inputs belong to the host and are valid during execute only; output
 * buffers (dims and data) are allocated by the backend and given back with release_tensor.
 */
#ifndef SONNX_BACKEND_H
#define SONNX_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SONNX_BACKEND_ABI_VERSION 2u
#define SONNX_BACKEND_ENTRY "sonnx_backend_get"

/* Return codes of prepare and execute. */
enum {
  SONNX_BACKEND_OK = 0,
  SONNX_BACKEND_ERROR = 1,      /* failed; the host may run the step on its cpu backend instead */
  SONNX_BACKEND_UNSUPPORTED = 2 /* the backend cannot run this (shape, attribute, ...) */
};

/* What kind of device a backend drives (`sonnx devices` shows it). */
enum {
  SONNX_DEVICE_OTHER = 0,
  SONNX_DEVICE_CPU = 1,
  SONNX_DEVICE_ACCELERATOR = 2, /* a GPU, NPU, DSP, ... */
  SONNX_DEVICE_REFERENCE = 3    /* a slow, literal implementation for checking others */
};

/* ONNX element types used most (any TensorProto.DataType number is allowed). */
enum {
  SONNX_FLOAT = 1,
  SONNX_UINT8 = 2,
  SONNX_INT8 = 3,
  SONNX_INT32 = 6,
  SONNX_INT64 = 7,
  SONNX_BOOL = 9,
  SONNX_FLOAT16 = 10,
  SONNX_DOUBLE = 11
};

/* A dense tensor. */
typedef struct sonnx_tensor {
  int32_t elem_type; /* TensorProto.DataType */
  int32_t rank;
  int64_t* dims; /* rank entries */
  void* data;    /* byte_size bytes, row-major */
  size_t byte_size;
} sonnx_tensor;

/* One attribute of a node; tensors and graphs are not passed (type only). */
typedef struct sonnx_attribute {
  const char* name;
  int32_t type; /* AttributeProto.AttributeType: 1 float, 2 int, 3 string, 6 floats, 7 ints, ... */
  float f;
  int64_t i;
  const char* s;
  size_t count; /* entries in floats / ints */
  const float* floats;
  const int64_t* ints;
} sonnx_attribute;

/* One node of a subgraph. Value names refer to the subgraph's inputs or earlier nodes' outputs;
 * an empty name is an omitted optional input or output. */
typedef struct sonnx_node {
  const char* op_type;
  const char* domain; /* "" = ai.onnx */
  int64_t opset;      /* the model's opset for the domain */
  size_t num_inputs;
  const char* const* inputs;
  const int32_t* input_types; /* element type of each input when known, else 0 */
  size_t num_outputs;
  const char* const* outputs;
  size_t num_attributes;
  const sonnx_attribute* attributes;
} sonnx_node;

/* A subgraph to compile: nodes in a valid execution order. */
typedef struct sonnx_graph {
  size_t num_nodes;
  const sonnx_node* nodes;
  size_t num_inputs;
  const char* const* inputs; /* execute receives tensors in this order; the subgraph's weights
                                  (initializers) come last, as inputs like the others */
  const int32_t* input_types;
  size_t num_outputs;
  const char* const* outputs; /* execute must fill tensors in this order */
} sonnx_graph;

/* One capability: an operator, the opset range it is run for, and the element types it accepts
 * (for every tensor input). */
typedef struct sonnx_capability {
  const char* domain;
  const char* op_type;
  int64_t min_opset;
  int64_t max_opset; /* inclusive; 0 = no upper bound */
  size_t num_types;
  const int32_t* types;
} sonnx_capability;

typedef struct sonnx_backend_v1 {
  uint32_t abi_version; /* SONNX_BACKEND_ABI_VERSION */
  const char* name;
  const char* version;
  size_t num_capabilities;
  const sonnx_capability* capabilities;
  /* Optional finer check of one node (attributes, arity); NULL = the capability table decides.
   * Returns nonzero when the node is supported. */
  int (*supports)(const sonnx_node* node);
  /* Compiles a subgraph; on success stores an opaque handle in *compiled. On failure writes a
   * message into error (at most error_size bytes, NUL-terminated). */
  int (*prepare)(const sonnx_graph* graph, void** compiled, char* error, size_t error_size);
  /* Runs a compiled subgraph: inputs in graph->inputs order, outputs to fill in graph->outputs
   * order (the host zeroes them first). */
  int (*execute)(void* compiled, const sonnx_tensor* inputs, size_t num_inputs, sonnx_tensor* outputs, size_t num_outputs,
                 char* error, size_t error_size);
  void (*release_tensor)(sonnx_tensor* tensor); /* frees dims and data of an output */
  void (*release)(void* compiled);
  /* ABI 2: */
  int32_t device_type; /* SONNX_DEVICE_* */
} sonnx_backend_v1;

/* The one symbol a plugin exports. */
typedef const sonnx_backend_v1* (*sonnx_backend_get_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* SONNX_BACKEND_H */
