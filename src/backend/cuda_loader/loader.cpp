// Finds and loads the CUDA plugin (backend/cuda_plugin.hpp): dlopen on first use, so a process
// that never asks for CUDA maps none of its libraries.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "qevolve/backend/cuda_plugin.hpp"

#ifndef QEVOLVE_CUDA_PLUGIN_BUILD_PATH
#define QEVOLVE_CUDA_PLUGIN_BUILD_PATH ""
#endif

namespace qevolve::backend::cuda {
namespace {

constexpr const char* kFileName = "libqevolve_cuda.so";

struct Loaded {
  const CudaPlugin* table = nullptr;
  std::string why;
};

void add(std::vector<std::string>& list, const std::filesystem::path& p) {
  std::error_code ec;
  const std::filesystem::path normal = std::filesystem::weakly_canonical(p, ec);
  const std::string s = (ec ? p : normal).string();
  for (const std::string& e : list)
    if (e == s) return;
  list.push_back(s);
}

/// The folders of the binary holding this loader: the object dladdr names (a shared library
/// when qevolve is one; argv[0] for the executable) and /proc/self/exe.
std::vector<std::filesystem::path> own_dirs() {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&driver_present), &info) != 0 && info.dli_fname != nullptr &&
      std::string(info.dli_fname).find('/') != std::string::npos) {
    const auto p = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) dirs.push_back(p.parent_path());
  }
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && (dirs.empty() || dirs.front() != exe.parent_path())) dirs.push_back(exe.parent_path());
  return dirs;
}

std::vector<std::string> candidates() {
  std::vector<std::string> list;
  for (const auto& d : own_dirs()) {
    add(list, d / kFileName);
    add(list, d / ".." / "lib" / kFileName);
  }
  if (const std::string built = QEVOLVE_CUDA_PLUGIN_BUILD_PATH; !built.empty()) add(list, built);
  return list;
}

Loaded open_plugin(const std::string& path) {
  Loaded r;
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* e = dlerror();
    r.why = e != nullptr ? e : path + ": dlopen failed";
    return r;
  }
  // The plugin stays loaded for the life of the process (CUDA's libraries do not unload well).
  using Entry = const CudaPlugin* (*)();
  void* sym = dlsym(handle, kCudaPluginEntry);
  if (sym == nullptr) {
    const char* e = dlerror();
    r.why = path + ": no " + kCudaPluginEntry + (e != nullptr ? std::string(" (") + e + ")" : std::string());
    return r;
  }
  const CudaPlugin* table = reinterpret_cast<Entry>(sym)();
  if (table == nullptr || table->abi != kCudaPluginAbi || table->table_size != sizeof(CudaPlugin)) {
    r.why = path + ": plugin interface " + (table == nullptr ? std::string("missing") : std::to_string(table->abi)) +
            ", this qevolve needs " + std::to_string(kCudaPluginAbi) + " (a plugin from another build?)";
    return r;
  }
  r.table = table;
  return r;
}

Loaded load() {
  if (const char* env = std::getenv(kCudaPluginEnv); env != nullptr && *env != '\0') return open_plugin(env);
  std::string looked;
  for (const std::string& c : candidates()) {
    if (::access(c.c_str(), F_OK) == 0) return open_plugin(c);
    looked += (looked.empty() ? "" : ", ") + c;
  }
  Loaded r;
  r.why = std::string(kFileName) + " not found (looked for " + looked + "; set " + kCudaPluginEnv + ")";
  return r;
}

}  // namespace

const CudaPlugin* plugin(std::string* why) {
  static std::once_flag once;
  static Loaded loaded;
  std::call_once(once, [] { loaded = load(); });
  if (why != nullptr) *why = loaded.why;
  return loaded.table;
}

bool driver_present() {
  return ::access("/dev/nvidiactl", F_OK) == 0 || ::access("/dev/dxg", F_OK) == 0;
}

}  // namespace qevolve::backend::cuda
