#include "corank/io/fault_injection.hpp"

namespace corank::io {

namespace {

std::atomic<FaultInjector*> g_injector{nullptr};

}  // namespace

ScopedFaultInjector::ScopedFaultInjector(FaultInjector& injector) noexcept
    : previous_(g_injector.exchange(&injector, std::memory_order_acq_rel)) {}

ScopedFaultInjector::~ScopedFaultInjector() { g_injector.store(previous_, std::memory_order_release); }

bool inject_failure(FaultPoint point) noexcept {
  FaultInjector* injector = g_injector.load(std::memory_order_acquire);
  return injector != nullptr && injector->fail(point);
}

}  // namespace corank::io
