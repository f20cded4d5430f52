#include "runtime/program_cache.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "runtime/error.h"
#include "runtime/sha256.h"

namespace clpipe::runtime {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'P', 'I', 'P', 'E', 'P', 'B'};
constexpr uint32_t kFormatVersion = 1;

enum : uint32_t { kEntryBinary = 0, kEntryMarker = 1 };

// Header of a disk entry; the payload (device binary) follows, none for a marker.
struct DiskHeader {
  char magic[8];
  uint32_t version;
  uint32_t kind;  // kEntryBinary or kEntryMarker
  uint64_t payload_size;
  uint8_t payload_sha[32];
  uint8_t key_sha[32];  // SHA-256 of the entry's file name: guards against a renamed file
};
static_assert(sizeof(DiskHeader) == 88, "disk header layout");

// What an entry's header repeats: its file name, the hash of device, options and source
// (disk_path), without the folder, so that a cache folder copied or moved elsewhere (a CI
// cache restored under another home, a container's bind mount) keeps its entries.
std::array<uint8_t, 32> entry_key_sha(const std::string& path) {
  return Sha256::of(std::filesystem::path(path).filename().string());
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string build_log(const cl::Program& p, const cl::Device& d) {
  std::string log;
  p.getBuildInfo(d, CL_PROGRAM_BUILD_LOG, &log);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
    log.pop_back();
  return log;
}

// A lock on one disk entry between the processes that share the cache directory
// (flock on `<entry>.lock`), so that processes wanting the same program at once build it
// once: the others wait, then read the entry, or on PoCL build from its cache what the
// builder left there. The kernel drops the lock when its holder exits or is killed, so a
// crashed builder never blocks the others; a wait longer than kMaxWait builds anyway,
// as does a directory where the lock file cannot be made. Lock files stay (empty; a
// file removed while another process waits on it would let a third build beside it).
class EntryLock {
 public:
  static constexpr auto kMaxWait = std::chrono::seconds(120);

  explicit EntryLock(const std::string& entry) {
    fd_ = ::open((entry + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    waited_ = true;
    const auto deadline = std::chrono::steady_clock::now() + kMaxWait;
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::close(fd_);
        fd_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ~EntryLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  EntryLock(const EntryLock&) = delete;
  EntryLock& operator=(const EntryLock&) = delete;

  // Another process held the entry: it may have written it meanwhile.
  bool waited() const { return waited_; }

 private:
  int fd_ = -1;
  bool waited_ = false;
};

}  // namespace

ProgramCache::ProgramCache(const Device& device, std::string disk_dir, size_t memory_capacity,
                           ProgramBuilderOptions builder, std::string system_dir)
    : device_(device),
      disk_dir_(std::move(disk_dir)),
      // The user's own folder is level 2, whose markers count.
      system_dir_(system_dir == disk_dir_ ? std::string() : std::move(system_dir)),
      capacity_(memory_capacity),
      builder_(builder.executable.empty()
                   ? nullptr
                   : std::make_unique<ProgramBuilder>(std::move(builder), device.index(),
                                                      device.description().device_name)) {}

ProgramCache::~ProgramCache() {
  for (const auto& [path, what] : rewrites_) {
    try {
      const cl::Program fresh = build_here(what.first, full_options(what.second));
      std::vector<std::vector<unsigned char>> binaries;
      if (fresh.getInfo(CL_PROGRAM_BINARIES, &binaries) != CL_SUCCESS || binaries.size() != 1 ||
          binaries[0].empty())
        continue;
      DiskHeader hdr{};
      std::ifstream in(path, std::ios::binary);
      const bool read = bool(in.read(reinterpret_cast<char*>(&hdr), sizeof(hdr)));
      in.close();
      Sha256 h;
      h.update(binaries[0].data(), binaries[0].size());
      if (read && std::memcmp(h.finish().data(), hdr.payload_sha, 32) == 0) continue;
      (void)write_program_entry(path, binaries[0]);
    } catch (const std::exception&) {
      // The entry stays as it was: still whole, only without the later code.
    }
  }
}

void ProgramCache::rewrite_entries_at_end() {
  std::lock_guard<std::mutex> lock(mutex_);
  rewrite_at_end_ = true;
}

std::string ProgramCache::default_disk_dir() {
  if (const char* d = std::getenv("CLPIPE_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/clpipe";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/clpipe";
  return {};
}

std::string ProgramCache::default_system_dir() {
  if (const char* d = std::getenv("CLPIPE_SYSTEM_CACHE_DIR")) return d;
  return CLPIPE_SYSTEM_CACHE_DIR;
}

// -w: the programs are clpipe's own, checked at clpipe's build time (clang
// -pedantic-errors); at run time a device compiler's warnings would only reach the
// user's stderr (PoCL's clang prints "N warnings generated." for a specialised tile
// program whose state flags are constants). Errors still fail the build with the log.
std::string ProgramCache::full_options(const std::string& options) const {
  return options.empty() ? "-cl-std=CL1.2 -w" : "-cl-std=CL1.2 -w " + options;
}

std::string ProgramCache::entry_name(const std::string& source, const std::string& options) const {
  Sha256 h;
  h.update_field("clpipe program cache v1");
  h.update_field(device_.cache_identity());
  h.update_field(full_options(options));
  h.update_field(source);
  return Sha256::hex(h.finish()) + ".clbin";
}

std::string ProgramCache::disk_path(const std::string& source, const std::string& options) const {
  return disk_dir_ + "/" + entry_name(source, options);
}

namespace {

// The memory entry's key of (source, options).
std::string memory_key(const std::string& source, const std::string& options) {
  Sha256 h;
  h.update_field(options);
  h.update_field(source);
  return Sha256::hex(h.finish());
}

}  // namespace

bool ProgramCache::contains(const std::string& source, const std::string& options) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.count(memory_key(source, options))) return true;
  }
  if (disk_dir_.empty() && system_dir_.empty()) return false;
  const std::string name = entry_name(source, options);
  std::error_code ec;
  if (!disk_dir_.empty() && std::filesystem::is_regular_file(disk_dir_ + "/" + name, ec))
    return true;
  // A marker there (a header alone) is skipped by get().
  return !system_dir_.empty() &&
         std::filesystem::file_size(system_dir_ + "/" + name, ec) > sizeof(DiskHeader) && !ec;
}

ProgramRef ProgramCache::get(const std::string& source, const std::string& options,
                             const ProgramHints& hints) {
  const std::string key = memory_key(source, options);

  std::promise<ProgramRef> promise;
  std::shared_future<ProgramRef> existing;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      ++stats_.memory_hits;
      lru_.splice(lru_.begin(), lru_, it->second.second);
      existing = it->second.first;
    } else {
      lru_.push_front(key);
      entries_.emplace(key, std::make_pair(promise.get_future().share(), lru_.begin()));
      while (entries_.size() > capacity_) {
        entries_.erase(lru_.back());
        lru_.pop_back();
        ++stats_.evictions;
      }
    }
  }
  // Waits for the first requester's build; rethrows its error.
  if (existing.valid()) return existing.get();
  try {
    ProgramRef p = build(source, options, hints);
    promise.set_value(p);
    return p;
  } catch (...) {
    promise.set_exception(std::current_exception());
    // A failed build is not cached: the next request reports it again.
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      lru_.erase(it->second.second);
      entries_.erase(it);
    }
    throw;
  }
}

ProgramRef ProgramCache::build(const std::string& source, const std::string& options,
                               const ProgramHints& hints) {
  std::string path;
  std::optional<EntryLock> entry_lock;
  const std::string name =
      disk_dir_.empty() && system_dir_.empty() ? std::string() : entry_name(source, options);
  if (!disk_dir_.empty()) {
    path = disk_dir_ + "/" + name;
    if (ProgramRef p = load_from_disk(path, source, options)) return p;
  }
  if (!system_dir_.empty()) {
    if (ProgramRef p = load_from_disk(system_dir_ + "/" + name, source, options, true)) return p;
  }
  if (!path.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(disk_dir_, ec);
    entry_lock.emplace(path);
    if (entry_lock->waited()) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++stats_.entry_waits;
      }
      if (ProgramRef p = load_from_disk(path, source, options)) return p;
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  const std::string opts = full_options(options);
  std::shared_ptr<Program> p;
  std::vector<unsigned char> binary;
  const bool build_only = builder_ && device_.generates_code_late() && device_.caches_builds();
  const bool marker = build_only && hints.stand_in && hints.launch_sizes.empty();
  if (build_only) {
    // The child writes the binary entry; a stand-in gets a marker instead (below).
    if (!hints.launch_sizes.empty())
      builder_->build_primed(source, opts, path, hints.launch_sizes);
    else
      builder_->build_only(source, opts, hints.stand_in ? "" : path);
    p = std::make_shared<Program>();
    p->program = build_here(source, opts);  // from the compiler's cache: ~0.1 s on PoCL
  } else if (builder_) {
    binary = builder_->build(source, opts);
    p = from_binary(binary, opts);
    if (!p) fail(ErrorCode::kCompileError, "the device refused the binary its builder made");
  } else {
    const cl::Program program = build_here(source, opts);
    p = std::make_shared<Program>();
    p->program = program;
    // The cache is an optimisation: a device without a binary only skips it.
    std::vector<std::vector<unsigned char>> binaries;
    if (!path.empty() && program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS &&
        binaries.size() == 1)
      binary = std::move(binaries[0]);
  }
  p->origin = Program::Origin::kSource;
  p->build_ms = ms_since(t0);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.builds;
    stats_.child_builds += builder_ != nullptr;
    stats_.child_entries += build_only && !marker && !path.empty();
  }
  if (!path.empty() && marker) {
    (void)write_program_marker(path);
  } else if (!path.empty() && !build_only && write_program_entry(path, binary)) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (rewrite_at_end_) rewrites_.emplace(path, std::make_pair(source, options));
  }
  return p;
}

cl::Program ProgramCache::build_here(const std::string& source, const std::string& opts) const {
  cl_int status = CL_SUCCESS;
  cl::Program program(device_.context(), source, false, &status);
  if (status != CL_SUCCESS) throw Error(status, "clCreateProgramWithSource");
  status = program.build({device_.device()}, opts.c_str());
  if (status != CL_SUCCESS) {
    throw Error(status, "clBuildProgram", "options \"" + opts + "\"",
                build_log(program, device_.device()));
  }
  return program;
}

std::shared_ptr<Program> ProgramCache::from_binary(const std::vector<unsigned char>& binary,
                                                   const std::string& opts) const {
  cl_int status = CL_SUCCESS;
  cl::Program::Binaries binaries{binary};
  std::vector<cl_int> binary_status;
  cl::Program program(device_.context(), {device_.device()}, binaries, &binary_status, &status);
  if (status != CL_SUCCESS || program.build({device_.device()}, opts.c_str()) != CL_SUCCESS)
    return nullptr;
  auto p = std::make_shared<Program>();
  p->program = program;
  return p;
}

ProgramRef ProgramCache::load_from_disk(const std::string& path, const std::string& source,
                                        const std::string& options, bool system) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  auto reject = [&]() -> ProgramRef {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.disk_rejects;
    return nullptr;
  };
  auto t0 = std::chrono::steady_clock::now();
  DiskHeader hdr{};
  if (!in.read(reinterpret_cast<char*>(&hdr), sizeof(hdr))) return reject();
  const auto key_sha = entry_key_sha(path);
  if (std::memcmp(hdr.magic, kMagic, sizeof(kMagic)) != 0 || hdr.version != kFormatVersion ||
      std::memcmp(hdr.key_sha, key_sha.data(), 32) != 0 ||
      (hdr.kind != kEntryBinary && hdr.kind != kEntryMarker) ||
      (hdr.kind == kEntryMarker) != (hdr.payload_size == 0) ||
      hdr.payload_size > (uint64_t(1) << 31)) {
    return reject();
  }
  if (hdr.kind == kEntryMarker && system) return nullptr;
  if (hdr.kind == kEntryMarker) {
    if (in.peek() != std::char_traits<char>::eof()) return reject();  // trailing garbage
    auto p = std::make_shared<Program>();
    try {
      p->program = build_here(source, full_options(options));
    } catch (const Error&) {
      return reject();  // built again the usual way, which reports the error
    }
    p->origin = Program::Origin::kDisk;
    p->build_ms = ms_since(t0);
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.disk_hits;
    return p;
  }
  std::vector<unsigned char> payload(hdr.payload_size);
  if (!in.read(reinterpret_cast<char*>(payload.data()), std::streamsize(payload.size())))
    return reject();
  if (in.peek() != std::char_traits<char>::eof()) return reject();  // trailing garbage
  Sha256 h;
  h.update(payload.data(), payload.size());
  if (std::memcmp(h.finish().data(), hdr.payload_sha, 32) != 0) return reject();

  std::shared_ptr<Program> p = from_binary(payload, full_options(options));
  if (!p) return reject();
  p->origin = Program::Origin::kDisk;
  p->build_ms = ms_since(t0);
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.disk_hits;
  stats_.system_hits += system;
  if (rewrite_at_end_ && !system) rewrites_.emplace(path, std::make_pair(source, options));
  return p;
}

namespace {

bool write_entry(const std::string& path, uint32_t kind,
                 const std::vector<unsigned char>& payload) {
  DiskHeader hdr{};
  std::memcpy(hdr.magic, kMagic, sizeof(kMagic));
  hdr.version = kFormatVersion;
  hdr.kind = kind;
  hdr.payload_size = payload.size();
  Sha256 h;
  h.update(payload.data(), payload.size());
  auto payload_sha = h.finish();
  std::memcpy(hdr.payload_sha, payload_sha.data(), 32);
  const auto key_sha = entry_key_sha(path);
  std::memcpy(hdr.key_sha, key_sha.data(), 32);

  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  // Write to a private temporary and rename: readers never see a partial entry.
  const std::string tmp = path + ".tmp" + std::to_string(::getpid()) + "_" +
                          std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char*>(&hdr), sizeof(hdr));
    out.write(reinterpret_cast<const char*>(payload.data()), std::streamsize(payload.size()));
    if (!out) {
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

}  // namespace

bool write_program_entry(const std::string& path, const std::vector<unsigned char>& payload) {
  return !payload.empty() && write_entry(path, kEntryBinary, payload);
}

bool write_program_marker(const std::string& path) {
  return write_entry(path, kEntryMarker, {});
}

ProgramCacheStats ProgramCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  ProgramCacheStats s = stats_;
  if (builder_) {
    s.children_started = builder_->children_started();
    s.pool_builds = builder_->pool_builds();
  }
  return s;
}

}  // namespace clpipe::runtime
