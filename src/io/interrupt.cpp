// The interrupt handler and its registry of temporary files (include/qevolve/interrupt.hpp).
#include "qevolve/interrupt.hpp"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

namespace qevolve::io {
namespace {

constexpr int kSlots = 16;
enum SlotState : int { kFree = 0, kFilling = 1, kReady = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
static_assert(std::atomic<int>::is_always_lock_free, "the handler needs lock-free atomics");

std::array<Slot, kSlots> g_slots;

void write_text(const char* text) {
  const auto n = static_cast<ssize_t>(std::strlen(text));
  static_cast<void>(::write(STDERR_FILENO, text, static_cast<std::size_t>(n)));
}

extern "C" void on_interrupt(int sig) {
  for (auto& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kReady) static_cast<void>(::unlink(slot.path));
  write_text(sig == SIGINT ? "qevolve: interrupted (SIGINT)\n" : "qevolve: interrupted (SIGTERM)\n");
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);  // one handler at a time
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    signal(SIGXFSZ, SIG_IGN);
    return true;
  }();
  static_cast<void>(installed);
}

TempFileGuard::TempFileGuard(const std::string& path) {
  if (path.size() >= PATH_MAX) return;
  for (int k = 0; k < kSlots; ++k) {
    int expected = kFree;
    Slot& slot = g_slots[static_cast<std::size_t>(k)];
    if (!slot.state.compare_exchange_strong(expected, kFilling, std::memory_order_acq_rel)) continue;
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    slot.state.store(kReady, std::memory_order_release);
    slot_ = k;
    return;
  }
}

TempFileGuard::~TempFileGuard() {
  if (slot_ >= 0) g_slots[static_cast<std::size_t>(slot_)].state.store(kFree, std::memory_order_release);
}

}  // namespace qevolve::io
