#include "corank/version.hpp"
namespace corank {
const char* version() noexcept { return CORANK_VERSION; }
}  // namespace corank
