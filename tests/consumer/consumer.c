/* consumer_c MODEL: the C API (sonnx.h) on a model with one float input X of shape [1,2] (the rule
 * fixture good_sonnx_mlp.onnx): check under the sonnx profile, run on X = [1, 2], print "Y = ...".
 * Built with `cc consumer.c $(pkg-config --cflags --libs sonnx)`. */
#include <stdio.h>

#include <sonnx/sonnx.h>

int main(int argc, char** argv) {
  sonnx_model* model = NULL;
  sonnx_diagnostics* found = NULL;
  sonnx_session* session = NULL;
  sonnx_outputs* outputs = NULL;
  if (argc != 2) return 2;
  if (sonnx_model_load(argv[1], &model) != SONNX_OK || sonnx_check(model, "sonnx", &found) != SONNX_OK ||
      sonnx_session_create(model, "reference", 1, &session) != SONNX_OK) {
    fprintf(stderr, "error: %s\n", sonnx_last_error());
    return 1;
  }
  printf("sonnx %s: %zu findings, %zu errors\n", sonnx_version(), sonnx_diagnostics_count(found),
         sonnx_diagnostics_errors(found));
  const float x[2] = {1.0f, 2.0f};
  const int64_t dims[2] = {1, 2};
  sonnx_named_tensor input = {"X", SONNX_FLOAT, dims, 2, x, sizeof x};
  if (sonnx_session_run(session, &input, 1, &outputs) != SONNX_OK) {
    fprintf(stderr, "error: %s\n", sonnx_last_error());
    return 1;
  }
  sonnx_named_tensor y;
  if (!sonnx_outputs_get(outputs, 0, &y) || y.elem_type != SONNX_FLOAT) return 1;
  printf("%s =", y.name);
  for (size_t i = 0; i < y.byte_size / sizeof(float); ++i) printf(" %g", ((const float*)y.data)[i]);
  printf("\n");
  sonnx_outputs_free(outputs);
  sonnx_session_free(session);
  sonnx_diagnostics_free(found);
  sonnx_model_free(model);
  return 0;
}
