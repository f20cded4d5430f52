// clpipe-info: what clpipe sees and answers, like clinfo / glxinfo.
//
// Prints the OpenCL devices (the one a Screen selects is marked), the screen's name and
// vendors, every integer, float, shader (per stage) and compute cap with its value, and
// the formats supported per bind flag. Uses only the public API. Exits with status 1 and
// the reason on stderr when no device can be used.
#include <clpipe/clpipe.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace clpipe;

void print_devices(const Screen& screen) {
  Result<std::vector<DeviceDescription>> devices = Screen::list_devices();
  std::printf("OpenCL devices:\n");
  if (!devices) {
    std::printf("  (listing failed: %s)\n", devices.status().to_string().c_str());
    return;
  }
  const DeviceDescription& selected = screen.device();
  bool marked = false;
  for (const DeviceDescription& d : devices.value()) {
    const bool is_selected = !marked && d.platform_name == selected.platform_name &&
                             d.device_name == selected.device_name;
    marked |= is_selected;
    std::printf("  %c %s / %s%s\n", is_selected ? '*' : ' ', d.platform_name.c_str(),
                d.device_name.c_str(), d.is_gpu ? " (GPU)" : "");
    std::printf("      vendor %s, driver %s, %s\n", d.device_vendor.c_str(),
                d.driver_version.c_str(), d.device_version.c_str());
  }
  std::printf("  (* = selected; CLPIPE_DEVICE=<text> picks another)\n\n");
}

void print_caps(const Screen& screen) {
  std::printf("Caps:\n");
  for (unsigned i = 0; i < unsigned(Cap::LAST); ++i) {
    std::printf("  %-48s %d\n", cap_name(Cap(i)), screen.get_param(Cap(i)));
  }
  std::printf("\nFloat caps:\n");
  for (unsigned i = 0; i < unsigned(CapF::LAST); ++i) {
    std::printf("  %-48s %g\n", cap_name(CapF(i)), double(screen.get_paramf(CapF(i))));
  }
  std::printf("\nShader caps:\n  %-32s", "");
  for (unsigned s = 0; s < kShaderTypes; ++s)
    std::printf(" %10s", shader_type_name(ShaderType(s)));
  std::printf("\n");
  for (unsigned i = 0; i < unsigned(ShaderCap::LAST); ++i) {
    std::printf("  %-32s", cap_name(ShaderCap(i)));
    for (unsigned s = 0; s < kShaderTypes; ++s) {
      std::printf(" %10d", screen.get_shader_param(ShaderType(s), ShaderCap(i)));
    }
    std::printf("\n");
  }
  std::printf("\nCompute caps:\n");
  for (unsigned i = 0; i < unsigned(ComputeCap::LAST); ++i) {
    std::printf("  %-32s", cap_name(ComputeCap(i)));
    const std::vector<uint64_t> values = screen.get_compute_param(ComputeCap(i));
    if (values.empty()) std::printf(" (none)");
    for (uint64_t v : values)
      std::printf(" %llu", static_cast<unsigned long long>(v));
    std::printf("\n");
  }
}

void print_formats(const Screen& screen) {
  struct BindRow {
    const char* name;
    uint32_t bind;
    TextureTarget target;
  };
  const BindRow rows[] = {
      {"RENDER_TARGET (2D)", Bind::RENDER_TARGET, TextureTarget::TEXTURE_2D},
      {"BLENDABLE (2D)", Bind::RENDER_TARGET | Bind::BLENDABLE, TextureTarget::TEXTURE_2D},
      {"DEPTH_STENCIL (2D)", Bind::DEPTH_STENCIL, TextureTarget::TEXTURE_2D},
      {"SAMPLER_VIEW (2D)", Bind::SAMPLER_VIEW, TextureTarget::TEXTURE_2D},
      {"SAMPLER_VIEW (3D)", Bind::SAMPLER_VIEW, TextureTarget::TEXTURE_3D},
      {"SAMPLER_VIEW (BUFFER)", Bind::SAMPLER_VIEW, TextureTarget::BUFFER},
      {"SHADER_IMAGE (2D)", Bind::SHADER_IMAGE, TextureTarget::TEXTURE_2D},
      {"VERTEX_BUFFER", Bind::VERTEX_BUFFER, TextureTarget::BUFFER},
  };
  std::printf("\nFormats per bind flag (single-sampled):\n");
  for (const BindRow& row : rows) {
    std::vector<const char*> names;
    for (unsigned f = 1; f < unsigned(Format::COUNT); ++f) {
      if (screen.is_format_supported(Format(f), row.target, 0, 0, row.bind)) {
        names.push_back(format_name(Format(f)));
      }
    }
    std::printf("  %s: %zu formats\n", row.name, names.size());
    std::string line = "   ";
    for (const char* n : names) {
      if (line.size() + 1 + std::string(n).size() > 100) {
        std::printf("%s\n", line.c_str());
        line = "   ";
      }
      line += " ";
      line += n;
    }
    if (!names.empty()) std::printf("%s\n", line.c_str());
  }
}

}  // namespace

int main() {
  Result<std::shared_ptr<Screen>> screen = Screen::create();
  if (!screen) {
    std::fprintf(stderr, "clpipe-info: no usable device: %s\n",
                 screen.status().to_string().c_str());
    return 1;
  }
  const Screen& s = *screen.value();
  print_devices(s);
  std::printf("Screen: %s\nVendor: %s\nDevice vendor: %s\n\n", s.get_name().c_str(),
              s.get_vendor().c_str(), s.get_device_vendor().c_str());
  print_caps(s);
  print_formats(s);
  return 0;
}
