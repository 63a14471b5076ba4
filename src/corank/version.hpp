#pragma once
namespace corank {
const char* version() noexcept;
}
