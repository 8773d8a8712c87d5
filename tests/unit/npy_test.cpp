// reference/model/npy.h: what write_npy writes, read_npy reads back bit for bit (every shape,
// including rank 0 and zero-size), and read_npy refuses damaged or unsupported files with a
// LoadError, never a crash or a silently wrong tensor.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sonnx/errors.h"
#include "reference/model/npy.h"
#include "sonnx/tensor.h"

namespace sonnx {
namespace {
namespace fs = std::filesystem;

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("sonnx-npy-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  fs::path write_bytes(const std::string& name, const std::string& bytes) const {
    fs::path p = path(name);
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  std::string read_bytes(const fs::path& p) const {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  // Writes t, reads it back and checks type, shape and bits are unchanged.
  void round_trip(const Tensor& t, const std::string& name) {
    fs::path p = path(name);
    write_npy(p, t);
    Tensor back = read_npy(p);
    EXPECT_EQ(back.dtype(), t.dtype()) << name;
    EXPECT_EQ(back.shape(), t.shape()) << name;
    EXPECT_EQ(back.size(), t.size()) << name;
    EXPECT_TRUE(back == t) << name;
    // The file is a valid v1.0 .npy: magic, version, header padded so data starts 64-aligned.
    std::string bytes = read_bytes(p);
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
    EXPECT_EQ(bytes[6], '\x01');
    size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    EXPECT_EQ((10 + header_len) % 64, 0u) << name;
    EXPECT_EQ(bytes[10 + header_len - 1], '\n') << name;
    EXPECT_EQ(bytes.size(), 10 + header_len + t.byte_size()) << name;
  }

  // A hand-made v1.0 file with the given header dict (padded) followed by `data`.
  static std::string npy_file(const std::string& dict, const std::string& data, char major = 1) {
    std::string header = dict;
    size_t prefix = major == 1 ? 10 : 12;
    size_t total = prefix + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::string out = "\x93NUMPY";
    out += major;
    out += '\0';
    if (major == 1) {
      out += static_cast<char>(header.size() & 0xff);
      out += static_cast<char>((header.size() >> 8) & 0xff);
    } else {
      for (int i = 0; i < 4; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    }
    return out + header + data;
  }
  static std::string f32_bytes(const std::vector<float>& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)};
  }

  fs::path dir_;
};

TEST_F(NpyTest, Float32RoundTrip) {
  round_trip(Tensor::from_vector<float>({2, 3}, {0.f, -1.5f, 3.25f, 1e-30f, -0.f, std::numeric_limits<float>::infinity()}),
             "f32_2x3.npy");
  round_trip(Tensor::from_vector<float>({5}, {1, 2, 3, 4, 5}), "f32_rank1.npy");
  round_trip(Tensor::from_vector<float>({1, 2, 1, 2}, {1, 2, 3, 4}), "f32_rank4.npy");
  // NaN payload survives (compared bitwise).
  round_trip(Tensor::from_vector<float>({1}, {std::numeric_limits<float>::quiet_NaN()}), "f32_nan.npy");
}

TEST_F(NpyTest, Int64RoundTrip) {
  round_trip(Tensor::from_vector<int64_t>({3, 1}, {std::numeric_limits<int64_t>::min(), 0, std::numeric_limits<int64_t>::max()}),
             "i64.npy");
}

TEST_F(NpyTest, BoolRoundTrip) { round_trip(Tensor::from_vector<bool>({2, 2}, {true, false, false, true}), "bool.npy"); }

TEST_F(NpyTest, Float16RoundTrip) {
  round_trip(Tensor::from_vector<float16_t>({3}, {float16_t(1.0f), float16_t(-2.5f), float16_t(65504.0f)}), "f16.npy");
  Tensor back = read_npy(path("f16.npy"));
  EXPECT_EQ(static_cast<float>(back.values<float16_t>()[1]), -2.5f);
}

TEST_F(NpyTest, RankZeroRoundTrip) {
  round_trip(Tensor::scalar<float>(42.5f), "f32_scalar.npy");
  round_trip(Tensor::scalar<int64_t>(-7), "i64_scalar.npy");
  round_trip(Tensor::scalar<bool>(true), "bool_scalar.npy");
  round_trip(Tensor::scalar<float16_t>(float16_t(0.5f)), "f16_scalar.npy");
  Tensor back = read_npy(path("f32_scalar.npy"));
  EXPECT_EQ(back.rank(), 0);
  EXPECT_EQ(back.size(), 1);
  EXPECT_EQ(back.values<float>()[0], 42.5f);
}

TEST_F(NpyTest, ZeroSizeRoundTrip) {
  round_trip(Tensor(DType::Float, {0}), "f32_0.npy");
  round_trip(Tensor(DType::Float, {2, 0, 3}), "f32_2x0x3.npy");
  round_trip(Tensor(DType::Int64, {0, 4}), "i64_0x4.npy");
  round_trip(Tensor(DType::Bool, {0}), "bool_0.npy");
  round_trip(Tensor(DType::Float16, {3, 0}), "f16_3x0.npy");
  Tensor back = read_npy(path("f32_2x0x3.npy"));
  EXPECT_EQ(back.shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(back.size(), 0);
}

TEST_F(NpyTest, ReadsHandMadeFilesAsNumpyWritesThem) {
  // numpy's own spelling: one-element shape tuple with a trailing comma, no trailing dict comma.
  Tensor a = read_npy(
      write_bytes("a.npy", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", f32_bytes({1.f, 2.f, 3.f}))));
  EXPECT_EQ(a.shape(), (Shape{3}));
  EXPECT_EQ(a.values<float>()[2], 3.f);
  Tensor s = read_npy(write_bytes("s.npy", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': ()}", f32_bytes({9.f}))));
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.values<float>()[0], 9.f);
  // Version 2.0 (4-byte header length).
  Tensor v2 = read_npy(
      write_bytes("v2.npy", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", f32_bytes({4.f, 5.f}), 2)));
  EXPECT_EQ(v2.shape(), (Shape{1, 2}));
  EXPECT_EQ(v2.values<float>()[1], 5.f);
}

TEST_F(NpyTest, RefusesTruncatedFiles) {
  write_npy(path("good.npy"), Tensor::from_vector<float>({2, 3}, {1, 2, 3, 4, 5, 6}));
  std::string good = read_bytes(path("good.npy"));
  size_t header_end = 10 + (static_cast<unsigned char>(good[8]) | (static_cast<unsigned char>(good[9]) << 8));
  // Cut inside the magic, inside the header, right after the header, and one byte short of the data.
  for (size_t len : {size_t{0}, size_t{4}, size_t{9}, size_t{20}, header_end - 1, header_end, good.size() - 1}) {
    fs::path p = write_bytes("cut" + std::to_string(len) + ".npy", good.substr(0, len));
    EXPECT_THROW(read_npy(p), LoadError) << "truncated to " << len << " bytes";
  }
  EXPECT_NO_THROW(read_npy(path("good.npy")));
}

TEST_F(NpyTest, RefusesBadMagic) {
  write_npy(path("good.npy"), Tensor::from_vector<float>({2}, {1, 2}));
  std::string bytes = read_bytes(path("good.npy"));
  std::string no_x93 = bytes;
  no_x93[0] = 'X';
  EXPECT_THROW(read_npy(write_bytes("m1.npy", no_x93)), LoadError);
  std::string lower = bytes;
  lower[1] = 'n';
  EXPECT_THROW(read_npy(write_bytes("m2.npy", lower)), LoadError);
  EXPECT_THROW(read_npy(write_bytes("text.npy", "this is not a numpy file at all, just text\n")), LoadError);
  std::string bad_version = bytes;
  bad_version[6] = '\x09';
  EXPECT_THROW(read_npy(write_bytes("v9.npy", bad_version)), LoadError);
}

TEST_F(NpyTest, RefusesFortranOrder) {
  std::string data = f32_bytes({1, 2, 3, 4, 5, 6});
  EXPECT_THROW(read_npy(write_bytes("f.npy", npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", data))),
               LoadError);
  // The same file in C order is fine.
  EXPECT_NO_THROW(read_npy(write_bytes("c.npy", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data))));
}

TEST_F(NpyTest, RefusesSizeMismatch) {
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_THROW(read_npy(write_bytes("short.npy", npy_file(dict, f32_bytes({1, 2, 3, 4, 5})))), LoadError);
  EXPECT_THROW(read_npy(write_bytes("long.npy", npy_file(dict, f32_bytes({1, 2, 3, 4, 5, 6, 7})))), LoadError);
  EXPECT_THROW(read_npy(write_bytes("partial.npy", npy_file(dict, f32_bytes({1, 2, 3, 4, 5, 6}) + "xy"))), LoadError);
  // A zero-size shape with data after the header is a mismatch too.
  EXPECT_THROW(read_npy(write_bytes("zero.npy", npy_file("{'descr': '<i8', 'fortran_order': False, 'shape': (0,), }",
                                                         std::string(8, '\0')))),
               LoadError);
}

TEST_F(NpyTest, RefusesMissingFileAndUnknownDtype) {
  EXPECT_THROW(read_npy(path("does-not-exist.npy")), LoadError);
  EXPECT_THROW(read_npy(write_bytes("big.npy",
                                    npy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", f32_bytes({1})))),
               LoadError);
  EXPECT_THROW(read_npy(write_bytes("obj.npy",
                                    npy_file("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')))),
               LoadError);
}

}  // namespace
}  // namespace sonnx
