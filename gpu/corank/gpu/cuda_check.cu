// Placeholder translation unit; replaced by the GPU backend.
namespace corank::gpu {}
