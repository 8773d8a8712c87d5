// Times the convolutions of resnet18 and mobilenet_v2 on one OpenMP thread with oneDNN in three
// activation layouts, to choose the rule in optimized/kernels/conv_layout.cpp:
//   (a) plain NCHW src/dst wrapped directly, weights in the primitive's preferred layout;
//   (b) blocked src/dst (format_tag::any) with the per-call reorders in and out counted;
//   (c) blocked src/dst without the reorders (activations kept blocked between convolutions);
// and (d) the fast kernel as make_fast_kernel prepares it (fused Relu, current rule).
// Prints median milliseconds and GFLOP/s. Usage: bench_conv_layouts [min_seconds_per_case]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <dnnl.hpp>

#include "optimized/kernels/fast_kernel.h"

using dnnl::memory;

namespace {

struct Case {
  const char* net;
  const char* what;
  int64_t C, M, group, H, k, stride, pad;
};

double median_ms(const std::function<void()>& f, double min_seconds) {
  f();  // warm up
  std::vector<double> t;
  auto start = std::chrono::steady_clock::now();
  while (t.size() < 5 ||
         (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < min_seconds && t.size() < 1000)) {
    auto a = std::chrono::steady_clock::now();
    f();
    auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

memory::desc dense(const memory::dims& d) {
  memory::dims s(d.size(), 1);
  for (size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * d[i];
  return memory::desc(d, memory::data_type::f32, s);
}

}  // namespace

int main(int argc, char** argv) {
  double min_seconds = argc > 1 ? std::atof(argv[1]) : 0.3;
  omp_set_num_threads(1);
  const std::vector<Case> cases = {
      {"resnet18", "stem 3->64 7x7/2 @224", 3, 64, 1, 224, 7, 2, 3},
      {"resnet18", "64->64 3x3 @56", 64, 64, 1, 56, 3, 1, 1},
      {"resnet18", "64->128 3x3/2 @56", 64, 128, 1, 56, 3, 2, 1},
      {"resnet18", "64->128 1x1/2 @56", 64, 128, 1, 56, 1, 2, 0},
      {"resnet18", "128->128 3x3 @28", 128, 128, 1, 28, 3, 1, 1},
      {"resnet18", "128->256 3x3/2 @28", 128, 256, 1, 28, 3, 2, 1},
      {"resnet18", "256->256 3x3 @14", 256, 256, 1, 14, 3, 1, 1},
      {"resnet18", "256->512 3x3/2 @14", 256, 512, 1, 14, 3, 2, 1},
      {"resnet18", "512->512 3x3 @7", 512, 512, 1, 7, 3, 1, 1},
      {"mobilenet_v2", "stem 3->32 3x3/2 @224", 3, 32, 1, 224, 3, 2, 1},
      {"mobilenet_v2", "dw 32 3x3 @112", 32, 32, 32, 112, 3, 1, 1},
      {"mobilenet_v2", "1x1 32->16 @112", 32, 16, 1, 112, 1, 1, 0},
      {"mobilenet_v2", "1x1 16->96 @112", 16, 96, 1, 112, 1, 1, 0},
      {"mobilenet_v2", "dw 96 3x3/2 @112", 96, 96, 96, 112, 3, 2, 1},
      {"mobilenet_v2", "1x1 96->24 @56", 96, 24, 1, 56, 1, 1, 0},
      {"mobilenet_v2", "1x1 24->144 @56", 24, 144, 1, 56, 1, 1, 0},
      {"mobilenet_v2", "dw 144 3x3 @56", 144, 144, 144, 56, 3, 1, 1},
      {"mobilenet_v2", "dw 144 3x3/2 @56", 144, 144, 144, 56, 3, 2, 1},
      {"mobilenet_v2", "1x1 32->192 @28", 32, 192, 1, 28, 1, 1, 0},
      {"mobilenet_v2", "dw 192 3x3 @28", 192, 192, 192, 28, 3, 1, 1},
      {"mobilenet_v2", "1x1 192->32 @28", 192, 32, 1, 28, 1, 1, 0},
      {"mobilenet_v2", "1x1 64->384 @14", 64, 384, 1, 14, 1, 1, 0},
      {"mobilenet_v2", "dw 384 3x3 @14", 384, 384, 384, 14, 3, 1, 1},
      {"mobilenet_v2", "1x1 384->64 @14", 384, 64, 1, 14, 1, 1, 0},
      {"mobilenet_v2", "1x1 160->960 @7", 160, 960, 1, 7, 1, 1, 0},
      {"mobilenet_v2", "dw 960 3x3 @7", 960, 960, 960, 7, 3, 1, 1},
      {"mobilenet_v2", "1x1 960->320 @7", 960, 320, 1, 7, 1, 1, 0},
      {"mobilenet_v2", "1x1 320->1280 @7", 320, 1280, 1, 7, 1, 1, 0},
  };
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream s(eng);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::printf("%-13s %-24s | %9s %7s | %9s %7s | %9s %7s | %9s %7s | %s\n", "net", "conv", "(a)nchw", "GF/s", "(b)blk+re",
              "GF/s", "(c)blocked", "GF/s", "(d)kernel", "GF/s", "impl (a) / (b)");
  double tot[4] = {0, 0, 0, 0};
  for (const Case& c : cases) {
    int64_t O = (c.H + 2 * c.pad - c.k) / c.stride + 1;
    memory::dims xd = {1, c.C, c.H, c.H}, yd = {1, c.M, O, O};
    memory::dims wd = c.group == 1 ? memory::dims{c.M, c.C, c.k, c.k}
                                   : memory::dims{c.group, c.M / c.group, c.C / c.group, c.k, c.k};
    double flops = 2.0 * c.M * (c.C / c.group) * c.k * c.k * O * O;
    std::vector<float> x(static_cast<size_t>(c.C * c.H * c.H)), w(static_cast<size_t>(c.M * (c.C / c.group) * c.k * c.k)),
        b(static_cast<size_t>(c.M)), y(static_cast<size_t>(c.M * O * O));
    for (auto& v : x) v = dist(rng);
    for (auto& v : w) v = dist(rng) * 0.1f;
    for (auto& v : b) v = dist(rng);
    memory::desc xplain = dense(xd), yplain = dense(yd), wplain = dense(wd), bdesc = dense({c.M});
    memory::desc wany(wd, memory::data_type::f32, memory::format_tag::any);
    auto make = [&](bool blocked) {
      memory::desc xa(xd, memory::data_type::f32, memory::format_tag::any),
          ya(yd, memory::data_type::f32, memory::format_tag::any);
      dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                        blocked ? xa : xplain, wany, bdesc, blocked ? ya : yplain, {c.stride, c.stride},
                                        {c.pad, c.pad}, {c.pad, c.pad});
      dnnl::post_ops ops;
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      dnnl::primitive_attr attr;
      attr.set_post_ops(ops);
      return dnnl::convolution_forward::primitive_desc(d, attr, eng);
    };
    memory xm(xplain, eng, x.data()), ym(yplain, eng, y.data()), wm(wplain, eng, w.data()), bm(bdesc, eng, b.data());
    double ms[4] = {0, 0, 0, 0};
    std::string impl[2];
    for (int mode = 0; mode < 2; ++mode) {
      auto pd = make(mode == 1);
      impl[mode] = pd.impl_info_str();
      dnnl::convolution_forward conv(pd);
      memory wr(pd.weights_desc(), eng);
      dnnl::reorder(wm, wr).execute(s, wm, wr);
      s.wait();
      if (mode == 0) {
        ms[0] = median_ms(
            [&] {
              conv.execute(s, {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, wr}, {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, ym}});
              s.wait();
            },
            min_seconds);
      } else {
        memory xb(pd.src_desc(), eng), yb(pd.dst_desc(), eng);
        dnnl::reorder rin(xm, xb), rout(yb, ym);
        ms[1] = median_ms(
            [&] {
              rin.execute(s, xm, xb);
              conv.execute(s, {{DNNL_ARG_SRC, xb}, {DNNL_ARG_WEIGHTS, wr}, {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, yb}});
              rout.execute(s, yb, ym);
              s.wait();
            },
            min_seconds);
        rin.execute(s, xm, xb);
        ms[2] = median_ms(
            [&] {
              conv.execute(s, {{DNNL_ARG_SRC, xb}, {DNNL_ARG_WEIGHTS, wr}, {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, yb}});
              s.wait();
            },
            min_seconds);
      }
    }
    // (d) the fast kernel, fused Relu.
    {
      sonnx::Node n;
      n.op_type = "Conv";
      n.name = "conv";
      n.inputs = {"x", "w", "b"};
      n.outputs = {"y"};
      auto ints = [&](const char* name, std::vector<int64_t> v) {
        sonnx::Attribute a;
        a.name = name;
        a.type = sonnx::Attribute::Type::Ints;
        a.ints = std::move(v);
        n.attributes.push_back(a);
      };
      ints("strides", {c.stride, c.stride});
      ints("pads", {c.pad, c.pad, c.pad, c.pad});
      sonnx::Attribute g;
      g.name = "group";
      g.type = sonnx::Attribute::Type::Int;
      g.i = c.group;
      n.attributes.push_back(g);
      sonnx::Tensor xt = sonnx::Tensor::from_vector<float>({1, c.C, c.H, c.H}, x);
      sonnx::Tensor wt = sonnx::Tensor::from_vector<float>({c.M, c.C / c.group, c.k, c.k}, w);
      sonnx::Tensor bt = sonnx::Tensor::from_vector<float>({c.M}, b);
      sonnx::Tensor yt(sonnx::DType::Float, {1, c.M, O, O});
      sonnx::FastKernelRequest r;
      r.node = &n;
      r.version = 11;
      r.constants = {{"w", &wt}, {"b", &bt}};
      sonnx::TypeInfo ti;
      ti.kind = sonnx::TypeInfo::Kind::Tensor;
      ti.elem = sonnx::DType::Float;
      ti.shape = std::vector<sonnx::Dim>{{1, ""}, {c.C, ""}, {c.H, ""}, {c.H, ""}};
      r.input_types = {ti};
      r.fused_activation = "Relu";
      auto k = sonnx::make_fast_kernel(r);
      if (!k) {
        std::fprintf(stderr, "no fast kernel for %s\n", c.what);
        return 1;
      }
      std::vector<const sonnx::Tensor*> in = {&xt, &wt, &bt};
      std::vector<sonnx::Tensor*> out = {&yt};
      ms[3] = median_ms([&] { k->run(in, out); }, min_seconds);
    }
    for (int i = 0; i < 4; ++i) tot[i] += ms[i];
    std::printf("%-13s %-24s | %9.3f %7.1f | %9.3f %7.1f | %9.3f %7.1f | %9.3f %7.1f | %s / %s\n", c.net, c.what, ms[0],
                flops / ms[0] / 1e6, ms[1], flops / ms[1] / 1e6, ms[2], flops / ms[2] / 1e6, ms[3], flops / ms[3] / 1e6,
                impl[0].c_str(), impl[1].c_str());
  }
  std::printf("total ms (one of each listed conv): (a) %.3f  (b) %.3f  (c) %.3f  (d) %.3f\n", tot[0], tot[1], tot[2], tot[3]);
  return 0;
}
