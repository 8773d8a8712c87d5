// A bounded, deterministic mutation run of a libFuzzer target, built with the ordinary (gcc,
// ASan/UBSan) test build: no coverage guidance, but no second compiler tree either. It feeds the
// target every seed, then RUNS mutants of them (bit flips, interesting bytes, inserted, erased and
// duplicated runs, splices of two seeds, large protobuf varints, truncations) drawn from SEED.
// scripts/run-fuzz.sh is the coverage-guided run (clang's libFuzzer) for longer campaigns.
//
//   sonnx_load_check_mutate CORPUS_DIR [RUNS] [SEED]
// Exit status: 0 when the target survived every input (a sanitizer report aborts the process);
// 2 on a usage error or an empty corpus.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

constexpr size_t kMaxLen = 1 << 16;

Bytes read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A protobuf varint of a value near a power of two: lengths and dimensions that overflow or
// exceed the input are what the loader must refuse.
Bytes big_varint(std::mt19937_64& rng) {
  uint64_t v = (uint64_t{1} << (rng() % 64)) - (rng() % 3);
  Bytes out;
  do {
    out.push_back(static_cast<uint8_t>((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
    v >>= 7;
  } while (v);
  return out;
}

Bytes mutate(const std::vector<Bytes>& corpus, std::mt19937_64& rng) {
  Bytes b = corpus[rng() % corpus.size()];
  const int rounds = 1 + static_cast<int>(rng() % 4);
  for (int r = 0; r < rounds; ++r) {
    const size_t n = b.size();
    const size_t at = n ? rng() % n : 0;
    switch (rng() % 8) {
      case 0:  // flip one bit
        if (n) b[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1: {  // an interesting byte
        static const uint8_t kBytes[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x08, 0x10, 0x12, 0x1a, 0x22};
        if (n) b[at] = kBytes[rng() % std::size(kBytes)];
        break;
      }
      case 2: {  // insert random bytes
        Bytes ins(1 + rng() % 8);
        for (auto& c : ins) c = static_cast<uint8_t>(rng());
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), ins.begin(), ins.end());
        break;
      }
      case 3:  // erase a run
        if (n)
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
                  b.begin() + static_cast<std::ptrdiff_t>(std::min(n, at + 1 + rng() % 16)));
        break;
      case 4: {  // duplicate a run
        if (!n) break;
        const size_t len = std::min(n - at, size_t{1} + rng() % 32);
        Bytes run(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + len));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(rng() % (n + 1)), run.begin(), run.end());
        break;
      }
      case 5: {  // splice: this input's head, another seed's tail
        const Bytes& other = corpus[rng() % corpus.size()];
        if (other.empty()) break;
        b.resize(at);
        b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(rng() % other.size()), other.end());
        break;
      }
      case 6: {  // a large varint over a byte (often a length or a dimension)
        Bytes v = big_varint(rng);
        if (n) b.erase(b.begin() + static_cast<std::ptrdiff_t>(at));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(std::min(at, b.size())), v.begin(), v.end());
        break;
      }
      default:  // truncate
        b.resize(at);
        break;
    }
    if (b.size() > kMaxLen) b.resize(kMaxLen);
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [RUNS] [SEED]\n", argv[0]);
    return 2;
  }
  const long runs = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 2000;
  const unsigned long long seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  std::vector<Bytes> corpus;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(argv[1], ec))
    if (e.is_regular_file()) corpus.push_back(read_file(e.path()));
  if (ec || corpus.empty() || runs < 0) {
    std::fprintf(stderr, "%s: no seed files in '%s' (or RUNS is negative)\n", argv[0], argv[1]);
    return 2;
  }
  for (const auto& s : corpus) LLVMFuzzerTestOneInput(s.data(), s.size());
  std::mt19937_64 rng(seed);
  for (long i = 0; i < runs; ++i) {
    const Bytes b = mutate(corpus, rng);
    LLVMFuzzerTestOneInput(b.data(), b.size());
  }
  std::printf("load+check: %zu seeds and %ld mutants (seed %llu), no finding\n", corpus.size(), runs, seed);
  return 0;
}
