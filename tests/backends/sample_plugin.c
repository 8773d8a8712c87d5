/* A sample sonnx backend plugin (include/sonnx/backend.h): runs Add, Mul, Relu and a plain 2-D Conv
 * (unit strides and dilations, no padding, one group) on float32 and nothing else. Add and Mul take
 * equal shapes or a one-element operand; other broadcasts make execute fail, so the host runs that
 * step on its cpu fallback. SONNX_SAMPLE_FAIL_PREPARE=1 makes every prepare fail (to test the prepare
 * fallback); SONNX_SAMPLE_FAULT=1 makes Relu, and SONNX_SAMPLE_FAULT=conv makes Conv, add 1e-3 to
 * every result (a planted bug certification must catch). SONNX_SAMPLE_CAPS=lie makes it also claim Abs
 * and Sub, which it cannot run (prepare then fails); SONNX_SAMPLE_CAPS=bad gives a capability row
 * with an empty opset range (the host must refuse the plugin). Used by tests/backends to test
 * partitioning, fallback, certification and localization of plugins.
 *
 * Compiled again with SONNX_SAMPLE_NAME and SONNX_SAMPLE_SLOW_OP (OP_ADD or OP_CONV) it is one of two
 * simulated accelerators for profile-guided assignment: every node of the slow operator waits
 * SONNX_SAMPLE_SLOW_MS (4) ms more, as a device that is slow at that operator would. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plugin_support.h"

enum { OP_ADD, OP_MUL, OP_RELU, OP_CONV };

#ifndef SONNX_SAMPLE_NAME
#define SONNX_SAMPLE_NAME "sample"
#endif
#ifndef SONNX_SAMPLE_SLOW_OP
#define SONNX_SAMPLE_SLOW_OP (-1)
#endif
#ifndef SONNX_SAMPLE_SLOW_MS
#define SONNX_SAMPLE_SLOW_MS 4
#endif

typedef struct {
  int op;
  int in[3]; /* value indices; -1 for Conv's omitted bias */
  int out;
} step_t;

typedef struct {
  size_t num_values, num_inputs, num_outputs, num_steps;
  char** names;
  step_t* steps;
  int* outputs; /* value index of each graph output */
} compiled_t;

static const int32_t kFloat[] = {SONNX_FLOAT};
static const sonnx_capability kCaps[] = {
    {"", "Add", 7, 0, 1, kFloat},
    {"", "Mul", 7, 0, 1, kFloat},
    {"", "Relu", 6, 0, 1, kFloat},
    {"", "Conv", 1, 0, 1, kFloat},
};
/* SONNX_SAMPLE_CAPS=lie: two operators more than it runs (Abs, Sub). */
static const sonnx_capability kLyingCaps[] = {
    {"", "Add", 7, 0, 1, kFloat},  {"", "Mul", 7, 0, 1, kFloat}, {"", "Relu", 6, 0, 1, kFloat},
    {"", "Conv", 1, 0, 1, kFloat}, {"", "Sub", 7, 0, 1, kFloat}, {"", "Abs", 6, 0, 1, kFloat},
};
/* SONNX_SAMPLE_CAPS=bad: Relu for opsets 14 to 6, an empty range. */
static const sonnx_capability kBadCaps[] = {
    {"", "Add", 7, 0, 1, kFloat},
    {"", "Relu", 14, 6, 1, kFloat},
};

/* Whether every entry of an ints attribute is v. */
static int all_ints(const sonnx_attribute* a, int64_t v) {
  for (size_t k = 0; k < a->count; ++k)
    if (a->ints[k] != v) return 0;
  return 1;
}

/* Conv only with the defaults this plugin computes: attributes that change nothing. */
static int supports(const sonnx_node* node) {
  if (strcmp(node->op_type, "Conv") != 0) return 1;
  if (node->num_inputs < 2 || node->num_inputs > 3 || (node->num_inputs == 3 && node->inputs[2][0] == '\0')) return 0;
  for (size_t i = 0; i < node->num_attributes; ++i) {
    const sonnx_attribute* a = &node->attributes[i];
    int ok = strcmp(a->name, "kernel_shape") == 0 || (strcmp(a->name, "strides") == 0 && all_ints(a, 1)) ||
             (strcmp(a->name, "dilations") == 0 && all_ints(a, 1)) || (strcmp(a->name, "pads") == 0 && all_ints(a, 0)) ||
             (strcmp(a->name, "group") == 0 && a->i == 1) || (strcmp(a->name, "auto_pad") == 0 && strcmp(a->s, "NOTSET") == 0);
    if (!ok) return 0;
  }
  return 1;
}

static int add_value(compiled_t* c, const char* name) {
  c->names[c->num_values] = strdup(name);
  return (int)c->num_values++;
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
  const char* fail = getenv("SONNX_SAMPLE_FAIL_PREPARE");
  if (fail && strcmp(fail, "1") == 0) {
    set_error(error, error_size, "SONNX_SAMPLE_FAIL_PREPARE is set");
    return SONNX_BACKEND_ERROR;
  }
  compiled_t* c = (compiled_t*)calloc(1, sizeof(compiled_t));
  c->names = (char**)calloc(g->num_inputs + g->num_nodes + 1, sizeof(char*));
  c->steps = (step_t*)calloc(g->num_nodes + 1, sizeof(step_t));
  c->outputs = (int*)calloc(g->num_outputs + 1, sizeof(int));
  for (size_t i = 0; i < g->num_inputs; ++i) add_value(c, g->inputs[i]);
  c->num_inputs = g->num_inputs;
  for (size_t n = 0; n < g->num_nodes; ++n) {
    const sonnx_node* node = &g->nodes[n];
    step_t* s = &c->steps[c->num_steps++];
    size_t arity;
    if (strcmp(node->op_type, "Add") == 0) s->op = OP_ADD, arity = 2;
    else if (strcmp(node->op_type, "Mul") == 0) s->op = OP_MUL, arity = 2;
    else if (strcmp(node->op_type, "Relu") == 0) s->op = OP_RELU, arity = 1;
    else if (strcmp(node->op_type, "Conv") == 0 && supports(node)) s->op = OP_CONV, arity = node->num_inputs;
    else {
      set_error(error, error_size, "operator not supported by the sample plugin");
      release(c);
      return SONNX_BACKEND_UNSUPPORTED;
    }
    if (node->num_inputs != arity || node->num_outputs != 1) {
      set_error(error, error_size, "unexpected arity");
      release(c);
      return SONNX_BACKEND_UNSUPPORTED;
    }
    s->in[2] = -1;
    for (size_t k = 0; k < arity; ++k) {
      s->in[k] = find_value(c->names, c->num_values, node->inputs[k]);
      if (s->in[k] < 0) {
        set_error(error, error_size, "input is neither a graph input nor an earlier output");
        release(c);
        return SONNX_BACKEND_ERROR;
      }
    }
    s->out = add_value(c, node->outputs[0]);
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

static int same_shape(const buffer_t* a, const buffer_t* b) {
  if (a->rank != b->rank) return 0;
  for (int32_t i = 0; i < a->rank; ++i)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* y[n,m,i,j] = b[m] + Σ_c,p,q x[n,c,i+p,j+q]·w[m,c,p,q] (+ fault), summed in float in that order. */
static int conv(const buffer_t* x, const buffer_t* w, const buffer_t* b, buffer_t* y, float fault) {
  if (x->rank != 4 || w->rank != 4 || w->dims[1] != x->dims[1] || w->dims[2] > x->dims[2] || w->dims[3] > x->dims[3] ||
      (b && b->count != w->dims[0]))
    return -1;
  const int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const int64_t M = w->dims[0], kH = w->dims[2], kW = w->dims[3], oH = H - kH + 1, oW = W - kW + 1;
  y->rank = 4;
  y->dims[0] = N, y->dims[1] = M, y->dims[2] = oH, y->dims[3] = oW;
  y->count = N * M * oH * oW;
  y->data = (float*)malloc(sizeof(float) * (size_t)(y->count ? y->count : 1));
  y->owned = 1;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t i = 0; i < oH; ++i)
        for (int64_t j = 0; j < oW; ++j) {
          float acc = b ? b->data[m] : 0.0f;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t p = 0; p < kH; ++p)
              for (int64_t q = 0; q < kW; ++q)
                acc += x->data[((n * C + c) * H + i + p) * W + j + q] * w->data[((m * C + c) * kH + p) * kW + q];
          y->data[((n * M + m) * oH + i) * oW + j] = acc + fault;
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
  const char* fault_env = getenv("SONNX_SAMPLE_FAULT");
  const float fault = fault_env && strcmp(fault_env, "1") == 0 ? 1e-3f : 0.0f;
  const float conv_fault = fault_env && strcmp(fault_env, "conv") == 0 ? 1e-3f : 0.0f;
  buffer_t* v = (buffer_t*)calloc(c->num_values, sizeof(buffer_t));
  for (size_t i = 0; i < num_inputs; ++i) {
    const sonnx_tensor* t = &inputs[i];
    if (t->elem_type != SONNX_FLOAT || t->rank > 8) {
      set_error(error, error_size, "only float32 tensors of rank <= 8");
      rc = SONNX_BACKEND_UNSUPPORTED;
      goto done;
    }
    v[i].rank = t->rank;
    v[i].count = 1;
    for (int32_t d = 0; d < t->rank; ++d) v[i].dims[d] = t->dims[d], v[i].count *= t->dims[d];
    v[i].data = (float*)t->data;
  }
  for (size_t n = 0; n < c->num_steps; ++n) {
    const step_t* s = &c->steps[n];
    const buffer_t* a = &v[s->in[0]];
    if (s->op == SONNX_SAMPLE_SLOW_OP) {
      struct timespec slow = {0, SONNX_SAMPLE_SLOW_MS * 1000000L};
      nanosleep(&slow, NULL);
    }
    buffer_t* r = &v[s->out];
    if (s->op == OP_RELU) {
      *r = *a;
      r->data = (float*)malloc(sizeof(float) * (size_t)(a->count ? a->count : 1));
      r->owned = 1;
      for (int64_t i = 0; i < a->count; ++i) r->data[i] = (a->data[i] > 0 ? a->data[i] : 0.0f) + fault;
      continue;
    }
    if (s->op == OP_CONV) {
      if (conv(a, &v[s->in[1]], s->in[2] >= 0 ? &v[s->in[2]] : NULL, r, conv_fault) != 0) {
        set_error(error, error_size, "the sample plugin's Conv takes X (N,C,H,W) and W (M,C,kH,kW) only");
        rc = SONNX_BACKEND_UNSUPPORTED;
        goto done;
      }
      continue;
    }
    const buffer_t* b = &v[s->in[1]];
    const buffer_t* big = a->count >= b->count ? a : b;
    if (!same_shape(a, b) && !(a->count == 1 && a->rank <= b->rank) && !(b->count == 1 && b->rank <= a->rank)) {
      set_error(error, error_size, "the sample plugin broadcasts only equal shapes or one-element operands");
      rc = SONNX_BACKEND_UNSUPPORTED;
      goto done;
    }
    *r = *big;
    r->data = (float*)malloc(sizeof(float) * (size_t)(big->count ? big->count : 1));
    r->owned = 1;
    for (int64_t i = 0; i < big->count; ++i) {
      float x = a->data[a->count == 1 ? 0 : i], y = b->data[b->count == 1 ? 0 : i];
      r->data[i] = s->op == OP_ADD ? x + y : x * y;
    }
  }
  for (size_t o = 0; o < num_outputs; ++o) write_output(&v[c->outputs[o]], &outputs[o]);
done:
  for (size_t i = 0; i < c->num_values; ++i)
    if (v[i].owned) free(v[i].data);
  free(v);
  return rc;
}

static sonnx_backend_v1 kBackend = {SONNX_BACKEND_ABI_VERSION,
                                    SONNX_SAMPLE_NAME,
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
  if (host_abi_version != SONNX_BACKEND_ABI_VERSION) return NULL;
  const char* caps = getenv("SONNX_SAMPLE_CAPS");
  if (caps && strcmp(caps, "lie") == 0) {
    kBackend.capabilities = kLyingCaps;
    kBackend.num_capabilities = sizeof kLyingCaps / sizeof kLyingCaps[0];
  } else if (caps && strcmp(caps, "bad") == 0) {
    kBackend.capabilities = kBadCaps;
    kBackend.num_capabilities = sizeof kBadCaps / sizeof kBadCaps[0];
  }
  return &kBackend;
}
