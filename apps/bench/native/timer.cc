// The `cpp` row: Google's C++ libsnappy called from C++, no JavaScript and no binding. A fork
// of the bench runs this program as it runs a Node child (src/measure/native.ts): it reads
// the rows the parent wrote (rows.txt, rows.bin), then answers the same JSON-lines requests
// on stdin (ready, warm, sample, allocation) with the timing rules of src/measure/run.ts: a
// warm-up that sizes the batch (about batchMs, at most batchMaxBytes written), then turns of
// batches until sliceMs of batch time has passed, until the row has minSamples batches and
// timeMs of batch time, as CaseTimer stops in the JavaScript forks.
// `timer gate` instead compresses or decompresses one item for the bench's gate.
#include <snappy.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <new>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Bytes operator new hands out while `counting`: what one op allocates (native memory, the
// report's "external" column), as the JavaScript forks measure theirs.
bool counting = false;
size_t allocated = 0;

enum class Op { Compress, Uncompress, CompressInto, UncompressInto };

const size_t kPage = 4096;
// The same offsets as the JavaScript forks' (src/measure/placement.ts).
const size_t kInputOffset = 64;
const size_t kOutputOffset = 2112;

// `size` bytes at `offset` into fresh pages; never freed (a fork lives for one run).
char* placed(size_t size, size_t offset) {
  void* p = nullptr;
  if (posix_memalign(&p, kPage, offset + std::max<size_t>(size, 1))) std::abort();
  return static_cast<char*>(p) + offset;
}

struct Item {
  const char* data;
  size_t size;
};

struct Row {
  Op op;
  double outputBytes;
  std::vector<Item> items;
  char* out = nullptr;  // the into-ops' one output array, sized for the largest item
  uint64_t k = 1;
  std::vector<double> samples;  // ns per op, one per batch
  double timedNs = 0;           // the batches' time on the batch clock
};

bool parseOp(const std::string& id, Op* op) {
  if (id == "compress") *op = Op::Compress;
  else if (id == "uncompress") *op = Op::Uncompress;
  else if (id == "compress-into") *op = Op::CompressInto;
  else if (id == "uncompress-into") *op = Op::UncompressInto;
  else return false;
  return true;
}

double clockNs(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}
clockid_t batchClock = CLOCK_MONOTONIC;
double wallNs() { return clockNs(CLOCK_MONOTONIC); }

// One op: every item of the row once; the sum of output lengths, so nothing is elided.
size_t runOp(Row& r) {
  size_t sink = 0;
  for (const Item& item : r.items) {
    switch (r.op) {
      case Op::Compress: {
        std::string out;  // an owned result, from the library's own allocating call
        sink += snappy::Compress(item.data, item.size, &out);
        break;
      }
      case Op::Uncompress: {
        std::string out;
        if (!snappy::Uncompress(item.data, item.size, &out)) std::abort();
        sink += out.size();
        break;
      }
      case Op::CompressInto: {
        size_t n = 0;
        snappy::RawCompress(item.data, item.size, r.out, &n);
        sink += n;
        break;
      }
      case Op::UncompressInto: {
        if (!snappy::RawUncompress(item.data, item.size, r.out)) std::abort();
        sink += static_cast<unsigned char>(r.out[0]);
        break;
      }
    }
  }
  return sink;
}

volatile size_t keep;

// ns per op over a batch of `k` ops.
double batch(Row& r, uint64_t k) {
  size_t sink = 0;
  const double t0 = clockNs(batchClock);
  for (uint64_t i = 0; i < k; i++) sink += runOp(r);
  const double t1 = clockNs(batchClock);
  keep = sink;
  return (t1 - t0) / static_cast<double>(k);
}

struct Timing {
  double warmupMs = 20, sliceMs = 8, batchMs = 2, batchMaxBytes = 4 << 20, timeMs = 64;
  size_t minSamples = 8;
};

// Batches per row at most, as src/measure/run.ts's MAX_BATCHES.
const size_t kMaxBatches = 1 << 16;

uint64_t warm(Row& r, const Timing& t) {
  const double byBytes = t.batchMaxBytes / std::max(1.0, r.outputBytes);
  const uint64_t maxByBytes = std::max<uint64_t>(1, static_cast<uint64_t>(byBytes));
  double best = 1e300;
  uint64_t k = 1;
  const double end = wallNs() + t.warmupMs * 1e6;
  do {
    best = std::min(best, batch(r, k));
    const double want = (t.batchMs * 1e6) / std::max(best, 1.0) + 0.5;
    k = std::max<uint64_t>(1, std::min<uint64_t>(maxByBytes, static_cast<uint64_t>(want)));
  } while (wallNs() < end);
  r.k = std::min<uint64_t>(k, 100000);
  return r.k;
}

// One turn: {"done":false}, or once the row has its batches {"done":true,"samples":[...]}.
std::string sample(Row& r, const Timing& t) {
  double spent = 0;
  do {
    const double t0 = wallNs();
    const double ns = batch(r, r.k);
    spent += (wallNs() - t0) / 1e6;
    r.samples.push_back(ns);
    r.timedNs += ns * static_cast<double>(r.k);
    if ((r.samples.size() >= t.minSamples && r.timedNs >= t.timeMs * 1e6) ||
        r.samples.size() >= kMaxBatches) {
      std::ostringstream values;
      for (size_t i = 0; i < r.samples.size(); i++) values << (i ? "," : "") << r.samples[i];
      return "{\"done\":true,\"samples\":[" + values.str() + "]}";
    }
  } while (spent < t.sliceMs);
  return "{\"done\":false}";
}

// Median bytes allocated by one op over 5 runs.
size_t allocation(Row& r) {
  std::vector<size_t> runs;
  for (int i = 0; i < 5; i++) {
    allocated = 0;
    counting = true;
    keep = runOp(r);
    counting = false;
    runs.push_back(allocated);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::cerr << "cannot read " << path << "\n";
    std::exit(2);
  }
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// rows.txt: a line per row, "<op> <outputBytes> <items> <offset> <length> ...", offsets into rows.bin.
std::vector<Row> readRows(const std::string& dir) {
  const std::string data = readFile(dir + "/rows.bin");
  std::istringstream index(readFile(dir + "/rows.txt"));
  std::vector<Row> rows;
  std::string line;
  while (std::getline(index, line)) {
    std::istringstream in(line);
    std::string id;
    size_t n = 0;
    Row r;
    in >> id >> r.outputBytes >> n;
    // Ops this program does not have stay in the list, so row numbers match the parent's.
    const bool known = parseOp(id, &r.op);
    size_t largest = 0;
    for (size_t i = 0; i < n; i++) {
      size_t at = 0, len = 0;
      in >> at >> len;
      if (!known) continue;
      char* item = placed(len, kInputOffset);
      std::copy_n(data.data() + at, len, item);
      r.items.push_back({item, len});
      size_t need = len;
      if (r.op == Op::CompressInto) need = snappy::MaxCompressedLength(len);
      if (r.op == Op::UncompressInto &&
          !snappy::GetUncompressedLength(data.data() + at, len, &need)) {
        std::cerr << "row " << rows.size() << ": bad preamble\n";
        std::exit(2);
      }
      largest = std::max(largest, need);
    }
    if (!known) r.items.clear();
    r.out = placed(largest, kOutputOffset);
    rows.push_back(std::move(r));
  }
  return rows;
}

const char* const MARK = "@@snappykit-bench ";

void reply(const std::string& value) { std::cout << MARK << "{\"ok\":true,\"value\":" << value << "}" << std::endl; }
void fail(const std::string& why) { std::cout << MARK << "{\"ok\":false,\"error\":\"" << why << "\"}" << std::endl; }

// Each request is one JSON line: {"cmd":"warm","row":3}. Only these two fields are read.
bool field(const std::string& line, const std::string& name, std::string* value) {
  const size_t at = line.find("\"" + name + "\":");
  if (at == std::string::npos) return false;
  size_t i = at + name.size() + 3;
  if (i < line.size() && line[i] == '"') {
    const size_t end = line.find('"', i + 1);
    *value = line.substr(i + 1, end - i - 1);
  } else {
    const size_t end = line.find_first_of(",}", i);
    *value = line.substr(i, end - i);
  }
  return true;
}

int serve(const std::string& dir, const Timing& t) {
  std::vector<Row> rows = readRows(dir);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::string cmd, rowText;
    field(line, "cmd", &cmd);
    if (cmd == "ready") {
      reply("true");
      continue;
    }
    const size_t row = field(line, "row", &rowText) ? std::strtoul(rowText.c_str(), nullptr, 10) : rows.size();
    if (row >= rows.size() || rows[row].items.empty()) {
      fail("cpp cannot run row " + rowText);
      continue;
    }
    Row& r = rows[row];
    if (cmd == "warm") reply(std::to_string(warm(r, t)));
    else if (cmd == "sample") reply(sample(r, t));
    else if (cmd == "allocation") reply("{\"heap\":0,\"external\":" + std::to_string(allocation(r)) + "}");
    else fail("unknown request " + cmd);
  }
  return 0;
}

// Each row's items' and output's offsets within their pages: "<row> <output> <item> <item> ...".
int layout(const std::string& dir) {
  const std::vector<Row> rows = readRows(dir);
  for (size_t i = 0; i < rows.size(); i++) {
    std::cout << i << " " << reinterpret_cast<uintptr_t>(rows[i].out) % kPage;
    for (const Item& item : rows[i].items) std::cout << " " << reinterpret_cast<uintptr_t>(item.data) % kPage;
    std::cout << "\n";
  }
  return 0;
}

// The gate, one call: stdin holds "c<length>\n<bytes>" (compress) or "u<length>\n<bytes>"
// (uncompress); stdout gets "<length>\n<bytes>", or "-1\n" when libsnappy refuses the input.
int gate() {
  const std::string in(std::istreambuf_iterator<char>(std::cin), {});
  const size_t nl = in.find('\n');
  if (in.size() < 2 || nl == std::string::npos) return 2;
  const size_t len = std::strtoul(in.c_str() + 1, nullptr, 10);
  if (nl + 1 + len != in.size()) return 2;
  const char* item = in.data() + nl + 1;
  std::string result;
  bool ok = true;
  if (in[0] == 'c') snappy::Compress(item, len, &result);
  else ok = snappy::Uncompress(item, len, &result);
  if (ok) std::cout << result.size() << "\n" << result;
  else std::cout << "-1\n";
  return 0;
}

}  // namespace

void* operator new(size_t n) {
  if (counting) allocated += n;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "gate") return gate();
  if (mode == "layout" && argc == 3) return layout(argv[2]);
  if (mode == "serve" && argc == 10) {
    Timing t;
    if (std::string(argv[3]) == "cpu") batchClock = CLOCK_PROCESS_CPUTIME_ID;
    t.warmupMs = std::atof(argv[4]);
    t.sliceMs = std::atof(argv[5]);
    t.batchMs = std::atof(argv[6]);
    t.batchMaxBytes = std::atof(argv[7]);
    t.minSamples = std::strtoul(argv[8], nullptr, 10);
    t.timeMs = std::atof(argv[9]);
    return serve(argv[2], t);
  }
  std::cerr << "usage: timer serve <inputs dir> <wall|cpu> <warmupMs> <sliceMs> <batchMs> <batchMaxBytes> <minSamples> <timeMs>\n"
               "       timer gate < request\n"
               "       timer layout <inputs dir>\n";
  return 2;
}
