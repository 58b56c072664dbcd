// CUB's device radix sort called directly on u32 keys and u32 values: the peer of GpuRadixSort.
// torch.sort (cub_sort.py) runs CUB too, but on int32 keys with an int64 permutation it builds
// itself, so it moves 12 bytes a pair where we move 8, and it has no keys-only sort. Compiled on
// the GPU machine, which has nvcc (tooling/scripts/device-bench.sh prints the line):
//
//   nvcc -O3 -std=c++17 -arch=native -o cub_sort cub_sort.cu
//   ./cub_sort 16777216 [random|sorted|reversed|few] [pairs|keys]
//   ./cub_sort 67108864 scan
//   ./cub_sort --serve      (then "16777216 random [pairs|keys]" lines on stdin, one result each)
//
// "scan" times cub::DeviceScan::ExclusiveSum on u32 instead, the peer of GpuScan: the input is
// the benchmark's (i % 7), the result is checked against a host scan first, and one result is
// the mean of 100 back-to-back scans between two CUDA events, as ours are timed (elements/s).
//
// Measured the way bench/primitives.gpu.ts measures ours: the keys are the benchmark's (xorshift32
// over all 32 bits from the same seed; sorted, reversed, or their top 4 bits for "few"), values
// 0..n-1. Before each of 10 sorts the pristine keys and values are copied into the sort's input
// (which puts them in the L2 as our refill does), and the sort alone is timed between CUDA
// events; one result is the mean of the 10, as one sample of ours is. The result is checked
// before timing: keys equal to a host sort, and for pairs every value names its key's input
// position, equal keys keeping their input order.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

static void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

/** Two CUDA events, made once: ms(work) is the GPU time of what work records on the default stream. */
struct EventTimer {
  cudaEvent_t start = nullptr, end = nullptr;

  EventTimer() {
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&end), "event");
  }
  ~EventTimer() {
    cudaEventDestroy(start);
    cudaEventDestroy(end);
  }
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;

  template <typename Work> float ms(Work &&work) {
    check(cudaEventRecord(start), "record start");
    work();
    check(cudaEventRecord(end), "record end");
    check(cudaEventSynchronize(end), "sync");
    float elapsed = 0;
    check(cudaEventElapsedTime(&elapsed, start, end), "elapsed");
    return elapsed;
  }
};

static std::vector<unsigned> keysFor(const std::string &input, size_t n) {
  if (input != "random" && input != "sorted" && input != "reversed" && input != "few") {
    throw std::runtime_error("unknown key kind '" + input + "': use random, sorted, reversed or few");
  }
  std::vector<unsigned> keys(n);
  unsigned x = 2463534242u;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    keys[i] = x;
  }
  if (input == "sorted" || input == "reversed") std::sort(keys.begin(), keys.end());
  if (input == "reversed") std::reverse(keys.begin(), keys.end());
  if (input == "few") {
    for (auto &key : keys) key >>= 28;
  }
  return keys;
}

struct Sort {
  size_t n;
  bool pairs;
  unsigned *pristineKeys = nullptr, *pristineValues = nullptr;
  unsigned *keysIn = nullptr, *keysOut = nullptr, *valuesIn = nullptr, *valuesOut = nullptr;
  void *temp = nullptr;
  size_t tempBytes = 0;

  Sort(const std::vector<unsigned> &keys, bool pairs) : n(keys.size()), pairs(pairs) {
    const size_t bytes = n * 4;
    std::vector<unsigned> values(n);
    for (size_t i = 0; i < n; i++) values[i] = static_cast<unsigned>(i);
    for (unsigned **buffer : {&pristineKeys, &pristineValues, &keysIn, &keysOut, &valuesIn, &valuesOut}) check(cudaMalloc(buffer, bytes), "cudaMalloc");
    check(cudaMemcpy(pristineKeys, keys.data(), bytes, cudaMemcpyHostToDevice), "upload keys");
    check(cudaMemcpy(pristineValues, values.data(), bytes, cudaMemcpyHostToDevice), "upload values");
    if (pairs) {
      check(cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, keysIn, keysOut, valuesIn, valuesOut, static_cast<int>(n)), "SortPairs size");
    } else {
      check(cub::DeviceRadixSort::SortKeys(nullptr, tempBytes, keysIn, keysOut, static_cast<int>(n)), "SortKeys size");
    }
    check(cudaMalloc(&temp, tempBytes), "cudaMalloc temp");
  }

  ~Sort() {
    for (void *buffer : {static_cast<void *>(pristineKeys), static_cast<void *>(pristineValues), static_cast<void *>(keysIn), static_cast<void *>(keysOut), static_cast<void *>(valuesIn), static_cast<void *>(valuesOut), temp}) cudaFree(buffer);
  }

  void refill() const {
    check(cudaMemcpyAsync(keysIn, pristineKeys, n * 4, cudaMemcpyDeviceToDevice), "refill keys");
    if (pairs) check(cudaMemcpyAsync(valuesIn, pristineValues, n * 4, cudaMemcpyDeviceToDevice), "refill values");
  }

  void run() {
    size_t bytes = tempBytes;
    if (pairs) {
      check(cub::DeviceRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valuesIn, valuesOut, static_cast<int>(n)), "SortPairs");
    } else {
      check(cub::DeviceRadixSort::SortKeys(temp, bytes, keysIn, keysOut, static_cast<int>(n)), "SortKeys");
    }
  }

  bool correct(const std::vector<unsigned> &keys) const {
    std::vector<unsigned> sorted(keys), gotKeys(n), gotValues(n);
    std::stable_sort(sorted.begin(), sorted.end());
    check(cudaMemcpy(gotKeys.data(), keysOut, n * 4, cudaMemcpyDeviceToHost), "read keys");
    if (gotKeys != sorted) return false;
    if (!pairs) return true;
    check(cudaMemcpy(gotValues.data(), valuesOut, n * 4, cudaMemcpyDeviceToHost), "read values");
    for (size_t i = 0; i < n; i++) {
      if (gotValues[i] >= n || keys[gotValues[i]] != gotKeys[i]) return false;
      if (i > 0 && gotKeys[i] == gotKeys[i - 1] && gotValues[i] <= gotValues[i - 1]) return false;
    }
    return true;
  }
};

/** Items per second of CUB sorting `n` keys of `input` (pairs or keys only), one sample: the mean of 10 refilled sorts. */
static double itemsPerSecond(size_t n, const std::string &input, bool pairs) {
  const std::vector<unsigned> keys = keysFor(input, n);
  Sort sort(keys, pairs);
  sort.refill();
  sort.run();
  check(cudaDeviceSynchronize(), "first sort");
  if (!sort.correct(keys)) throw std::runtime_error("CUB's result is wrong; not timing it");
  for (int i = 0; i < 3; i++) {
    sort.refill();
    sort.run();
  }
  EventTimer timer;
  double total = 0;
  for (int i = 0; i < 10; i++) {
    sort.refill();
    total += timer.ms([&] { sort.run(); });
  }
  return n / (total / 10 / 1000);
}

/** CUB's exclusive sum over `n` u32 (i % 7), in device buffers it owns. */
struct Scan {
  size_t n;
  std::vector<unsigned> host;
  unsigned *input = nullptr, *output = nullptr;
  void *temp = nullptr;
  size_t tempBytes = 0;

  explicit Scan(size_t n) : n(n), host(n) {
    for (size_t i = 0; i < n; i++) host[i] = static_cast<unsigned>(i % 7);
    check(cudaMalloc(&input, n * 4), "cudaMalloc");
    check(cudaMalloc(&output, n * 4), "cudaMalloc");
    check(cudaMemcpy(input, host.data(), n * 4, cudaMemcpyHostToDevice), "upload");
    check(cub::DeviceScan::ExclusiveSum(nullptr, tempBytes, input, output, static_cast<int>(n)), "ExclusiveSum size");
    check(cudaMalloc(&temp, tempBytes), "cudaMalloc temp");
  }

  ~Scan() {
    for (void *buffer : {static_cast<void *>(input), static_cast<void *>(output), temp}) cudaFree(buffer);
  }
  Scan(const Scan &) = delete;
  Scan &operator=(const Scan &) = delete;

  void run() {
    size_t bytes = tempBytes;
    check(cub::DeviceScan::ExclusiveSum(temp, bytes, input, output, static_cast<int>(n)), "ExclusiveSum");
  }

  bool correct() const {
    std::vector<unsigned> got(n);
    check(cudaMemcpy(got.data(), output, n * 4, cudaMemcpyDeviceToHost), "read scan");
    unsigned running = 0;
    for (size_t i = 0; i < n; i++) {
      if (got[i] != running) return false;
      running += host[i];
    }
    return true;
  }
};

/** Elements per second of CUB's exclusive sum over `n` u32 (i % 7), one sample: the mean of 100 back-to-back scans. */
static double scanElementsPerSecond(size_t n) {
  Scan scan(n);
  scan.run();
  if (!scan.correct()) throw std::runtime_error("CUB's scan is wrong; not timing it");
  for (int i = 0; i < 10; i++) scan.run();
  const int runs = 100;
  EventTimer timer;
  const float ms = timer.ms([&] {
    for (int i = 0; i < runs; i++) scan.run();
  });
  return n / (ms / 1000.0 / runs);
}

static double answer(const std::string &line) {
  std::istringstream words(line);
  long long n = 0;
  std::string input = "random", what = "pairs", extra;
  if (!(words >> n) || n < 1 || n > (1ll << 30)) throw std::runtime_error("expected '<count> [input] [pairs|keys]' or '<count> scan' with a count from 1 to 2^30");
  words >> input >> what;
  if (words >> extra) throw std::runtime_error("too many words in '" + line + "'");
  if (input == "scan") return scanElementsPerSecond(static_cast<size_t>(n));
  if (what != "pairs" && what != "keys") throw std::runtime_error("'" + what + "' is neither pairs nor keys");
  return itemsPerSecond(static_cast<size_t>(n), input, what == "pairs");
}

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--serve") == 0) {
    // One process for a whole benchmark run: a request line in, items per second (or
    // "error <why>") out.
    std::string line;
    while (std::getline(std::cin, line)) {
      try {
        std::printf("%.6e\n", answer(line));
      } catch (const std::exception &error) {
        std::printf("error %s\n", error.what());
      }
      std::fflush(stdout);
    }
    return 0;
  }
  std::string request;
  for (int i = 1; i < argc; i++) request += std::string(i > 1 ? " " : "") + argv[i];
  try {
    std::printf("%.6e\n", answer(request));
  } catch (const std::exception &error) {
    std::fprintf(stderr, "cub_sort: %s\n", error.what());
    return 1;
  }
  return 0;
}
