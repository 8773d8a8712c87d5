// NonZero: the indices of the non-zero elements in row-major order, as an int64 tensor of shape
// [rank, count] (numpy.nonzero stacked; a scalar gives shape [0, count]). Strings count as
// non-zero when non-empty.
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> nonzero(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  std::vector<std::vector<int64_t>> found;  // multi-indices of the non-zero elements
  visit_dtype(x.dtype(), [&]<class T>() {
    const T* p = x.data<T>();
    for_each_index(x.shape(), [&](const std::vector<int64_t>& idx, int64_t lin) {
      if (is_nonzero(p[lin])) found.push_back(idx);
    });
  });
  int64_t rank = x.rank(), count = static_cast<int64_t>(found.size());
  Tensor out(DType::Int64, {rank, count});
  int64_t* o = out.data<int64_t>();
  for (int64_t d = 0; d < rank; ++d)
    for (int64_t j = 0; j < count; ++j) o[d * count + j] = found[static_cast<size_t>(j)][static_cast<size_t>(d)];
  return one(std::move(out));
}
}  // namespace
SONNX_KERNEL("", "NonZero", 9, nonzero, Accuracy::Exact);
namespace {
// [rank, number of non-zero elements (unknown)].
void non_zero_shape(InferContext& ctx) {
  auto r = ctx.input_rank(0);
  ctx.set_output(0, DType::Int64, Dims{r ? known_dim(*r) : Dim{}, Dim{}});
}
}  // namespace
SONNX_SHAPE_RULE("", "NonZero", (9, 13), non_zero_shape);
}  // namespace sonnx
