/* What the test plugins (sample_plugin.c, faulty_plugin.c) share: float32 tensors as plain
 * buffers, the error text, the value table of a compiled subgraph, and handing outputs to the host
 * (include/sonnx/backend.h: the backend allocates output dims and data, release_tensor frees them). */
#ifndef SONNX_TEST_PLUGIN_SUPPORT_H
#define SONNX_TEST_PLUGIN_SUPPORT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sonnx/backend.h"

typedef struct {
  int64_t dims[8];
  int32_t rank;
  int64_t count;
  float* data; /* owned, or borrowed for graph inputs */
  int owned;
} buffer_t;

static void set_error(char* error, size_t size, const char* message) {
  if (error && size) snprintf(error, size, "%s", message);
}

/* The index of `name` among the first `count` value names, or -1. */
static int find_value(char* const* names, size_t count, const char* name) {
  for (size_t i = 0; i < count; ++i)
    if (strcmp(names[i], name) == 0) return (int)i;
  return -1;
}

/* Copies a buffer into an output tensor the host will give back to release_tensor. */
static void write_output(const buffer_t* src, sonnx_tensor* t) {
  t->elem_type = SONNX_FLOAT;
  t->rank = src->rank;
  t->dims = (int64_t*)malloc(sizeof(int64_t) * (size_t)(src->rank ? src->rank : 1));
  memcpy(t->dims, src->dims, sizeof(int64_t) * (size_t)src->rank);
  t->byte_size = sizeof(float) * (size_t)src->count;
  t->data = malloc(t->byte_size ? t->byte_size : 1);
  memcpy(t->data, src->data, t->byte_size);
}

static void release_tensor(sonnx_tensor* t) {
  free(t->dims);
  free(t->data);
  t->dims = NULL;
  t->data = NULL;
}

#endif
