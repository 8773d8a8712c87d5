// The enclosure of Einsum-12 (enclose/enclose_einsum.cpp; spec/accuracy.md, "Admissible results"):
// for matrix products, batches, "..." broadcasting, a diagonal, a trace, three operands, a transpose
// and a total, each output's exact value (MPFR at 2200 bits, where these sums of products of floats
// are exact; the terms listed by hand for each equation) lies in the real enclosure; the reference's
// float result and the products summed in float backwards lie in the admissible one, which holds
// the real one; a value 1000 float ulps of the magnitudes summed away from the reference's lies
// outside it; an output that moves one element is that element exactly.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_string;
using Operands = std::vector<std::vector<float>>;
// The products output element o sums, each as its factors.
using Terms = std::function<std::vector<std::vector<double>>(const Operands&, int64_t o)>;

struct EinsumCase {
  std::string equation;
  std::vector<Shape> shapes;
  Shape out_shape;
  Terms terms;
  bool moves_one_element = false;  // each output is one input element (no product, no sum)
};

void check_einsum(const EinsumCase& ec, const Operands& x) {
  SCOPED_TRACE(ec.equation);
  std::vector<Value> in;
  for (size_t k = 0; k < x.size(); ++k) in.push_back(floats(ec.shapes[k], x[k]));
  OneNodeModel m = one_node_model("Einsum", 12, in, {attr_string("equation", ec.equation)});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ec.out_shape);
  ASSERT_EQ(adm.lo.shape(), ec.out_shape);
  ASSERT_EQ(ref.shape(), ec.out_shape);
  for (int64_t o = 0; o < ref.size(); ++o) {
    SCOPED_TRACE("element " + std::to_string(o));
    Exact exact(0);
    double magnitudes = 0;
    float backwards = 0;
    auto products = ec.terms(x, o);
    for (auto t = products.rbegin(); t != products.rend(); ++t) {
      Exact p(1);
      float pf = 1;
      for (double f : *t) {
        mpfr_mul_d(p.get(), p.get(), f, MPFR_RNDN);  // exact at 2200 bits
        pf *= static_cast<float>(f);
      }
      mpfr_add(exact.get(), exact.get(), p.get(), MPFR_RNDN);
      magnitudes += std::fabs(mpfr_get_d(p.get(), MPFR_RNDN));
      backwards += pf;
    }
    Interval r = bound_at(real, o), a = bound_at(adm, o);
    EXPECT_TRUE(exact.inside(r)) << "[" << r.lo << ", " << r.hi << "]";
    double y = ref.as_double(o);
    for (double v : {y, static_cast<double>(backwards)})
      EXPECT_TRUE(a.contains(v)) << v << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    double far = 1000 * float_ulp(std::max(magnitudes, std::fabs(y)));
    EXPECT_FALSE(a.contains(y + far));
    EXPECT_FALSE(a.contains(y - far));
    if (ec.moves_one_element) {
      EXPECT_EQ(r.lo, y);
      EXPECT_EQ(r.hi, y);
      EXPECT_EQ(a.lo, y);
      EXPECT_EQ(a.hi, y);
    }
  }
}

std::vector<EinsumCase> einsum_cases() {
  std::vector<EinsumCase> cases;
  // A[2,3]·B[3,4].
  cases.push_back({"ij,jk->ik", {{2, 3}, {3, 4}}, {2, 4}, [](const Operands& x, int64_t o) {
                     int64_t i = o / 4, k = o % 4;
                     std::vector<std::vector<double>> t;
                     for (int64_t j = 0; j < 3; ++j) t.push_back({x[0][i * 3 + j], x[1][j * 4 + k]});
                     return t;
                   }});
  // Batched: A[2,2,3]·B[2,3,2].
  cases.push_back({"bij,bjk->bik", {{2, 2, 3}, {2, 3, 2}}, {2, 2, 2}, [](const Operands& x, int64_t o) {
                     int64_t b = o / 4, i = (o / 2) % 2, k = o % 2;
                     std::vector<std::vector<double>> t;
                     for (int64_t j = 0; j < 3; ++j) t.push_back({x[0][(b * 2 + i) * 3 + j], x[1][(b * 3 + j) * 2 + k]});
                     return t;
                   }});
  // Implicit output "...ik"; the ellipsis [2,1] of A broadcasts against [3] of B to [2,3].
  cases.push_back({"...ij,...jk", {{2, 1, 2, 3}, {3, 3, 2}}, {2, 3, 2, 2}, [](const Operands& x, int64_t o) {
                     int64_t p = o / 12, q = (o / 4) % 3, i = (o / 2) % 2, k = o % 2;
                     std::vector<std::vector<double>> t;
                     for (int64_t j = 0; j < 3; ++j) t.push_back({x[0][(p * 2 + i) * 3 + j], x[1][(q * 3 + j) * 2 + k]});
                     return t;
                   }});
  // Trace (implicit: no letter occurs once, the output is a scalar).
  cases.push_back({"ii", {{4, 4}}, {}, [](const Operands& x, int64_t) {
                     std::vector<std::vector<double>> t;
                     for (int64_t i = 0; i < 4; ++i) t.push_back({x[0][i * 5]});
                     return t;
                   }});
  // Three operands: Σ a_i·b_i·c_i.
  cases.push_back({"i,i,i->", {{5}, {5}, {5}}, {}, [](const Operands& x, int64_t) {
                     std::vector<std::vector<double>> t;
                     for (int64_t i = 0; i < 5; ++i) t.push_back({x[0][i], x[1][i], x[2][i]});
                     return t;
                   }});
  // Three operands, a chain with a broadcast letter: A[2,3]·B[3,2]·C[1,2] summed over j and k.
  cases.push_back({"ij,jk,lk->il", {{2, 3}, {3, 2}, {1, 2}}, {2, 1}, [](const Operands& x, int64_t o) {
                     std::vector<std::vector<double>> t;
                     for (int64_t j = 0; j < 3; ++j)
                       for (int64_t k = 0; k < 2; ++k) t.push_back({x[0][o * 3 + j], x[1][j * 2 + k], x[2][k]});
                     return t;
                   }});
  // Elementwise product: one term of two factors.
  cases.push_back({"ij,ij->ij", {{2, 3}, {2, 3}}, {2, 3}, [](const Operands& x, int64_t o) {
                     return std::vector<std::vector<double>>{{x[0][o], x[1][o]}};
                   }});
  // The total of a matrix.
  cases.push_back({"ij->", {{3, 4}}, {}, [](const Operands& x, int64_t) {
                     std::vector<std::vector<double>> t;
                     for (float v : x[0]) t.push_back({v});
                     return t;
                   }});
  // A diagonal and a transpose move elements.
  cases.push_back({"ii->i",
                   {{3, 3}},
                   {3},
                   [](const Operands& x, int64_t o) { return std::vector<std::vector<double>>{{x[0][o * 4]}}; },
                   true});
  cases.push_back({"ij->ji",
                   {{2, 3}},
                   {3, 2},
                   [](const Operands& x, int64_t o) { return std::vector<std::vector<double>>{{x[0][(o % 2) * 3 + o / 2]}}; },
                   true});
  // The suite's batch diagonal (spaces in the equation) and scalar.
  cases.push_back(
      {"...ii ->...i",
       {{2, 3, 3}},
       {2, 3},
       [](const Operands& x, int64_t o) { return std::vector<std::vector<double>>{{x[0][(o / 3) * 9 + (o % 3) * 4]}}; },
       true});
  cases.push_back(
      {"->", {{}}, {}, [](const Operands& x, int64_t) { return std::vector<std::vector<double>>{{x[0][0]}}; }, true});
  // Row sums.
  cases.push_back({"ij->i", {{3, 4}}, {3}, [](const Operands& x, int64_t o) {
                     std::vector<std::vector<double>> t;
                     for (int64_t j = 0; j < 4; ++j) t.push_back({x[0][o * 4 + j]});
                     return t;
                   }});
  return cases;
}

TEST(EncloseEinsum, HoldsEverySumOfProductsInAnyOrder) {
  std::mt19937 rng(1212);
  for (const EinsumCase& ec : einsum_cases())
    for (int round = 0; round < 3; ++round) {
      Operands x;
      for (const Shape& s : ec.shapes) {
        size_t n = 1;
        for (int64_t d : s) n *= static_cast<size_t>(d);
        x.push_back(round == 0 ? uniform_floats(n, rng, -1.0f, 1.0f) : wide_floats(n, rng));
      }
      check_einsum(ec, x);
    }
}

// Products and sums exact in float: the real enclosure holds the value (by hand) within a few ulps
// of double (the sum's a priori bound), the admissible one holds it.
TEST(EncloseEinsum, ExactSumIsAPoint) {
  OneNodeModel m = one_node_model("Einsum", 12, {floats({2, 2}, {1, 2, 3, 4}), floats({2}, {0.5f, -2})},
                                  {attr_string("equation", "ij,j->i")});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  const double want[] = {1 * 0.5 - 2 * 2, 3 * 0.5 - 4 * 2};  // -3.5, -6.5
  for (int64_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(bound_at(real, i).contains(want[i]));
    EXPECT_LE(ulps_of_double(bound_at(real, i)), 64);  // the double sum's a priori bound: tens of ulps of double
    EXPECT_TRUE(bound_at(adm, i).contains(want[i]));
  }
}

// A summed letter of size 0 gives exactly 0.
TEST(EncloseEinsum, EmptySumIsZero) {
  OneNodeModel m = one_node_model("Einsum", 12, {floats({2, 0}, {}), floats({0, 3}, {})},
                                  {attr_string("equation", "ij,jk->ik")});
  Bounds adm = enclose_output(m, Semantics::Admissible);
  ASSERT_EQ(adm.lo.shape(), (Shape{2, 3}));
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(bound_at(adm, i).lo, 0.0);
    EXPECT_EQ(bound_at(adm, i).hi, 0.0);
  }
}

}  // namespace
}  // namespace sonnx::enclose
