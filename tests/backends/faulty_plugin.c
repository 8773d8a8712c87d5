/* A backend plugin with planted faults, for showing that `sonnx fuzz --backend` finds defects in
 * another implementation, shrinks them and groups them (tests/backends/fuzz_faulty_plugin.sh). It
 * runs ten float32 operators, with numpy broadcasting: Add, Sub, Mul, Div, Relu, Abs, Neg, Exp,
 * Sigmoid, Tanh. Three are wrong on purpose, each in its own way:
 *   - Tanh: |x| > 0.5 gives tanh(x)·(1 + 2⁻¹⁰)          (a value outside the enclosure)
 *   - Sub:  operands of unequal shapes give B − A      (only when broadcasting)
 *   - Sigmoid: x < 0 gives NaN                         (NaN where the result is defined)
 * The other seven are right (within their allowances), and must never be blamed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_support.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_RELU, OP_ABS, OP_NEG, OP_EXP, OP_SIGMOID, OP_TANH, OP_COUNT };
static const char* const kOpNames[OP_COUNT] = {"Add", "Sub", "Mul", "Div", "Relu", "Abs", "Neg", "Exp", "Sigmoid", "Tanh"};
enum { kMaxRank = 8 };

static const int32_t kFloat[] = {SONNX_FLOAT};
static const sonnx_capability kCaps[] = {
    {"", "Add", 7, 0, 1, kFloat},     {"", "Sub", 7, 0, 1, kFloat},  {"", "Mul", 7, 0, 1, kFloat}, {"", "Div", 7, 0, 1, kFloat},
    {"", "Relu", 6, 0, 1, kFloat},    {"", "Abs", 6, 0, 1, kFloat},  {"", "Neg", 6, 0, 1, kFloat}, {"", "Exp", 6, 0, 1, kFloat},
    {"", "Sigmoid", 6, 0, 1, kFloat}, {"", "Tanh", 6, 0, 1, kFloat},
};

typedef struct {
  int op;
  int in[2]; /* value indices; in[1] = -1 for a unary operator */
  int out;
} step_t;

typedef struct {
  size_t num_values, num_inputs, num_outputs, num_steps;
  char** names;
  step_t* steps;
  int* outputs;
} compiled_t;

static int op_of(const char* op_type) {
  for (int op = 0; op < OP_COUNT; ++op)
    if (strcmp(kOpNames[op], op_type) == 0) return op;
  return -1;
}

static int supports(const sonnx_node* node) {
  int op = op_of(node->op_type);
  return op >= 0 && node->num_outputs == 1 && node->num_inputs == (op <= OP_DIV ? 2u : 1u);
}

static void release(void* handle) {
  compiled_t* c = (compiled_t*)handle;
  if (!c) return;
  for (size_t i = 0; i < c->num_values; ++i) free(c->names[i]);
  free(c->names);
  free(c->steps);
  free(c->outputs);
  free(c);
}

static int prepare(const sonnx_graph* g, void** out, char* error, size_t error_size) {
  compiled_t* c = (compiled_t*)calloc(1, sizeof(compiled_t));
  c->names = (char**)calloc(g->num_inputs + g->num_nodes + 1, sizeof(char*));
  c->steps = (step_t*)calloc(g->num_nodes + 1, sizeof(step_t));
  c->outputs = (int*)calloc(g->num_outputs + 1, sizeof(int));
  for (size_t i = 0; i < g->num_inputs; ++i) c->names[c->num_values++] = strdup(g->inputs[i]);
  c->num_inputs = g->num_inputs;
  for (size_t n = 0; n < g->num_nodes; ++n) {
    const sonnx_node* node = &g->nodes[n];
    if (!supports(node)) {
      set_error(error, error_size, "operator not supported by the faulty plugin");
      release(c);
      return SONNX_BACKEND_UNSUPPORTED;
    }
    step_t* s = &c->steps[c->num_steps++];
    s->op = op_of(node->op_type);
    s->in[1] = -1;
    for (size_t k = 0; k < node->num_inputs; ++k) {
      s->in[k] = find_value(c->names, c->num_values, node->inputs[k]);
      if (s->in[k] < 0) {
        set_error(error, error_size, "input is neither a graph input nor an earlier output");
        release(c);
        return SONNX_BACKEND_ERROR;
      }
    }
    c->names[c->num_values] = strdup(node->outputs[0]);
    s->out = (int)c->num_values++;
  }
  for (size_t o = 0; o < g->num_outputs; ++o) {
    c->outputs[o] = find_value(c->names, c->num_values, g->outputs[o]);
    if (c->outputs[o] < 0) {
      set_error(error, error_size, "a graph output is not produced");
      release(c);
      return SONNX_BACKEND_ERROR;
    }
  }
  c->num_outputs = g->num_outputs;
  *out = c;
  return SONNX_BACKEND_OK;
}

static float unary(int op, float x) {
  switch (op) {
    case OP_RELU: return x > 0 ? x : 0.0f;
    case OP_ABS: return fabsf(x);
    case OP_NEG: return -x;
    case OP_EXP: return (float)exp((double)x);
    case OP_SIGMOID: return x < 0.0f ? NAN : (float)(1.0 / (1.0 + exp(-(double)x))); /* planted fault */
    default: {                                                                       /* OP_TANH */
      float t = (float)tanh((double)x);
      return fabsf(x) > 0.5f ? t * (1.0f + 1.0f / 1024.0f) : t; /* planted fault */
    }
  }
}

static float binary(int op, float a, float b) {
  switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    default: return a / b; /* OP_DIV */
  }
}

/* Multidirectional broadcasting of a and b into r (rank <= 8); 0 on success. */
static int broadcast_shape(const buffer_t* a, const buffer_t* b, buffer_t* r) {
  r->rank = a->rank > b->rank ? a->rank : b->rank;
  r->count = 1;
  for (int32_t d = 0; d < r->rank; ++d) {
    int64_t da = d - (r->rank - a->rank) >= 0 ? a->dims[d - (r->rank - a->rank)] : 1;
    int64_t db = d - (r->rank - b->rank) >= 0 ? b->dims[d - (r->rank - b->rank)] : 1;
    if (da != db && da != 1 && db != 1) return -1;
    r->dims[d] = da == 1 ? db : da;
    r->count *= r->dims[d];
  }
  return 0;
}

/* The flat index into x (broadcast to r's shape) of r's flat index i. */
static int64_t source_index(const buffer_t* x, const buffer_t* r, int64_t i) {
  int64_t index = 0, stride = 1;
  for (int32_t d = r->rank - 1; d >= 0; --d) {
    int64_t coord = i % r->dims[d];
    i /= r->dims[d];
    int32_t xd = d - (r->rank - x->rank);
    if (xd < 0) break;
    if (x->dims[xd] != 1) index += coord * stride;
    stride *= x->dims[xd];
  }
  return index;
}

static int same_shape(const buffer_t* a, const buffer_t* b) {
  if (a->rank != b->rank) return 0;
  for (int32_t d = 0; d < a->rank; ++d)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

static int run_step(const step_t* s, buffer_t* v) {
  const buffer_t* a = &v[s->in[0]];
  buffer_t* r = &v[s->out];
  if (s->in[1] < 0) {
    *r = *a;
  } else if (broadcast_shape(a, &v[s->in[1]], r) != 0) {
    return -1;
  }
  r->data = (float*)malloc(sizeof(float) * (size_t)(r->count ? r->count : 1));
  r->owned = 1;
  if (s->in[1] < 0) {
    for (int64_t i = 0; i < r->count; ++i) r->data[i] = unary(s->op, a->data[i]);
    return 0;
  }
  const buffer_t* b = &v[s->in[1]];
  int swap = s->op == OP_SUB && !same_shape(a, b); /* planted fault */
  for (int64_t i = 0; i < r->count; ++i) {
    float x = a->data[source_index(a, r, i)], y = b->data[source_index(b, r, i)];
    r->data[i] = swap ? binary(s->op, y, x) : binary(s->op, x, y);
  }
  return 0;
}

static int execute(void* handle, const sonnx_tensor* inputs, size_t num_inputs, sonnx_tensor* outputs, size_t num_outputs,
                   char* error, size_t error_size) {
  compiled_t* c = (compiled_t*)handle;
  int rc = SONNX_BACKEND_OK;
  if (num_inputs != c->num_inputs || num_outputs != c->num_outputs) {
    set_error(error, error_size, "wrong number of inputs or outputs");
    return SONNX_BACKEND_ERROR;
  }
  buffer_t* v = (buffer_t*)calloc(c->num_values, sizeof(buffer_t));
  for (size_t i = 0; i < num_inputs; ++i) {
    const sonnx_tensor* t = &inputs[i];
    if (t->elem_type != SONNX_FLOAT || t->rank > kMaxRank) {
      set_error(error, error_size, "only float32 tensors of rank <= 8");
      rc = SONNX_BACKEND_UNSUPPORTED;
      goto done;
    }
    v[i].rank = t->rank;
    v[i].count = 1;
    for (int32_t d = 0; d < t->rank; ++d) v[i].dims[d] = t->dims[d], v[i].count *= t->dims[d];
    v[i].data = (float*)t->data;
  }
  for (size_t n = 0; n < c->num_steps; ++n)
    if (run_step(&c->steps[n], v) != 0) {
      set_error(error, error_size, "shapes that do not broadcast");
      rc = SONNX_BACKEND_ERROR;
      goto done;
    }
  for (size_t o = 0; o < num_outputs; ++o) write_output(&v[c->outputs[o]], &outputs[o]);
done:
  for (size_t i = 0; i < c->num_values; ++i)
    if (v[i].owned) free(v[i].data);
  free(v);
  return rc;
}

static const sonnx_backend_v1 kBackend = {SONNX_BACKEND_ABI_VERSION,
                                          "faulty",
                                          "1.0",
                                          sizeof kCaps / sizeof kCaps[0],
                                          kCaps,
                                          supports,
                                          prepare,
                                          execute,
                                          release_tensor,
                                          release,
                                          SONNX_DEVICE_ACCELERATOR};

const sonnx_backend_v1* sonnx_backend_get(uint32_t host_abi_version) {
  return host_abi_version == SONNX_BACKEND_ABI_VERSION ? &kBackend : NULL;
}
