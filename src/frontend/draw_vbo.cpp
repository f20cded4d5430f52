// ContextImpl::draw_vbo: validates the call and the bound state, derives the DrawSetup
// (draw_setup.h), gets the stage programs (shader_program.h) and records each entry of
// draws[] into the context's scene (draw/draw_pipeline.h), which runs when its results
// are needed (ContextImpl::flush_scene); draws that run alone run at once and report
// their counts to active queries.
#include <algorithm>
#include <cstring>
#include <optional>

#include "compiler/linkage.h"
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/draw/program_tiers.h"
#include "frontend/draw/tile_variant.h"
#include "frontend/draw_setup.h"
#include "frontend/shader_program.h"
#include "frontend/views.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

const CompiledTgsi& compiled_of(const ShaderHandle& s) {
  return *s->compiled;
}

// One draw of a call: the range and its instances, or where the device finds them.
struct CallDraw {
  DrawStartCountBias range;
  uint32_t instance_count = 0, start_instance = 0;
  // Counts the device reads when the scene runs: range.count x instance_count are the
  // positions planned (DrawPipeline::device_count_positions).
  std::optional<draw::DeviceCount> device;
};

// The draws of an indirect call: their arguments (indexed: {count, instance_count,
// start, index_bias, start_instance}; else without index_bias) stay in the buffer, read
// by the device when the scene runs. Checks that they lie inside it.
std::vector<CallDraw> indirect_draws(ResourceImpl& buf, const DrawIndirectInfo& ind, bool indexed) {
  const uint32_t words = indexed ? 5 : 4;
  const uint32_t stride = ind.stride ? ind.stride : words * 4;
  if (ind.draw_count == 0) return {};
  if (!buf.is_buffer())
    runtime::invalid("draw_vbo: the indirect argument resource is not a BUFFER");
  if (ind.offset % 4 != 0 || (ind.draw_count > 1 && stride % 4 != 0)) {
    runtime::invalid("draw_vbo: indirect offset ", ind.offset, " and stride ", stride,
                     " must be multiples of 4");
  }
  const uint64_t need = uint64_t(ind.offset) + uint64_t(stride) * (ind.draw_count - 1) + words * 4;
  if (need > buf.size_bytes()) {
    runtime::invalid("draw_vbo: indirect arguments end at byte ", need, " of a ", buf.size_bytes(),
                     "-byte buffer");
  }
  std::vector<CallDraw> out;
  for (uint32_t i = 0; i < ind.draw_count; ++i) {
    draw::DeviceCount d;
    d.kind = indexed ? CLP_COUNT_INDEXED : CLP_COUNT_DIRECT;
    d.buffer = buf.storage();
    d.offset = ind.offset + uint64_t(i) * stride;
    out.push_back(CallDraw{{}, 1, 0, d});
  }
  return out;
}

// Layers a draw renders: with a geometry shader writing LAYER and attachments of more
// than one layer, the smallest layer count of the attachments (GL requires them all to
// be layered); otherwise 1 (LAYER is ignored, everything goes to the first layer).
uint32_t draw_layers(const draw::DrawSetup& s, const compiler::ShaderInfo& gs) {
  if (s.rasterizer.rasterizer_discard || !gs.find_output(compiler::Semantic::LAYER, 0)) return 1;
  uint32_t layers = UINT32_MAX;
  for (uint32_t i = 0; i < s.nr_cbufs; ++i) {
    if (s.cbufs[i].format != Format::NONE) layers = std::min(layers, s.cbufs[i].layers);
  }
  if (s.zsbuf.format != Format::NONE) layers = std::min(layers, s.zsbuf.layers);
  return layers == UINT32_MAX ? 1 : layers;
}

}  // namespace

Status ContextImpl::draw_vbo(const DrawInfo& info_in, unsigned drawid_offset,
                             const DrawIndirectInfo* indirect,
                             const std::vector<DrawStartCountBias>& draws_in) {
  return guard("draw_vbo", [&] {
    DrawInfo info = info_in;
    if (unsigned(info.mode) >= kPrimTypes)
      runtime::invalid("invalid primitive type ", unsigned(info.mode));
    if (info.mode == PrimType::PATCHES) runtime::unsupported("patches need tessellation");
    if (info.index_size != 0 && info.index_size != 1 && info.index_size != 2 &&
        info.index_size != 4) {
      runtime::invalid("index_size ", unsigned(info.index_size), " (0, 1, 2 or 4)");
    }
    const ShaderHandle& vs = state_.shaders[unsigned(ShaderType::VERTEX)];
    const ShaderHandle& gs = state_.shaders[unsigned(ShaderType::GEOMETRY)];
    const ShaderHandle& fs = state_.shaders[unsigned(ShaderType::FRAGMENT)];
    if (!vs) runtime::invalid("no vertex shader bound");
    if (state_.shaders[unsigned(ShaderType::TESS_CTRL)] ||
        state_.shaders[unsigned(ShaderType::TESS_EVAL)]) {
      runtime::unsupported("tessellation shaders are not supported");
    }
    const bool discard = state_.rasterizer && state_.rasterizer->state.rasterizer_discard;
    if (!fs && !discard) runtime::invalid("no fragment shader bound");
    const bool empty_fb = state_.framebuffer.width == 0 || state_.framebuffer.height == 0;
    const bool so_bound = std::any_of(state_.so_targets.begin(), state_.so_targets.end(),
                                      [](const StreamOutputTargetHandle& t) { return bool(t); });
    // Nothing can be drawn into an empty framebuffer; stream output still captures.
    if (!discard && empty_fb && !so_bound) return;

    std::vector<CallDraw> draws;
    ResourceImpl* indirect_args = nullptr;  // read by the scene
    if (indirect && indirect->count_from_stream_output) {
      // draw_auto: the vertex count is the target's filled size over the stride of vertex
      // buffer 0 (Gallium's rule). The size lives on the device, which reads it; the
      // target's size over the stride bounds it (stream output writes inside the target).
      const StreamOutputTargetImpl& t =
          so_target_of(indirect->count_from_stream_output, screen_->id(), "draw_vbo");
      const uint32_t stride = state_.vertex_buffers[0].stride;
      info.index_size = 0;
      info.primitive_restart = false;
      if (!t.filled()() || stride == 0 || info.instance_count == 0) return;  // no vertices
      draw::DeviceCount d;
      d.kind = CLP_COUNT_AUTO;
      d.buffer = t.filled();
      d.stride = stride;
      d.instance_count = info.instance_count;
      d.start_instance = info.start_instance;
      draws.push_back(
          CallDraw{DrawStartCountBias{0, std::max<uint32_t>(t.buffer_size() / stride, 1), 0},
                   info.instance_count, info.start_instance, d});
    } else if (indirect) {
      if (indirect->indirect_draw_count) runtime::unsupported("indirect draw counts");
      if (info.index_size && info.has_user_indices)
        runtime::invalid("draw_vbo: an indirect draw needs an index buffer, not user indices");
      indirect_args = &resource(indirect->buffer, "draw_vbo indirect buffer");
      draws = indirect_draws(*indirect_args, *indirect, info.index_size != 0);
    } else {
      for (const DrawStartCountBias& d : draws_in) {
        draws.push_back(CallDraw{d, info.instance_count, info.start_instance, std::nullopt});
      }
    }

    // The positions planned for a draw whose counts the device reads, within a scene's
    // budget for setup s (a larger count replays the scene with it).
    auto plan = [&](CallDraw& d, const draw::DrawSetup& s) {
      if (!d.device) return;
      if (d.device->kind == CLP_COUNT_AUTO) {
        const uint64_t fit = pipeline_->chunk_positions(s, info.mode, d.range.count);
        d.range.count = uint32_t(
            std::clamp<uint64_t>(fit / std::max<uint32_t>(d.instance_count, 1), 1, d.range.count));
      } else {
        d.range.count = uint32_t(pipeline_->device_count_positions(s, info.mode, *d.device));
      }
    };

    // Unchanged state: the last draw's derived setup (derived_, context_impl.h), for the
    // draws that fit its scene; the rest take the path below.
    const bool counting = state_.queries_active && queries_.any_active();
    size_t first = 0;
    if (derived_.setup && state_.dirty == 0 && !counting && !state_.render_cond_query &&
        !info.has_user_indices &&
        derived_.index_resource.get() == (info.index_size ? info.index_resource.get() : nullptr) &&
        pipeline_ && derived_.scene == pipeline_->scene_serial() &&
        derived_.rename_epoch == ResourceImpl::rename_epoch()) {
      if (indirect_args) note_scene_use(DrawResources{{indirect_args}, {}, {}});
      for (; first < draws.size(); ++first) {
        CallDraw d = draws[first];
        plan(d, *derived_.setup);
        if (!pipeline_->fits(*derived_.setup, info.mode, d.range.count, d.instance_count)) break;
        info.instance_count = d.instance_count;
        info.start_instance = d.start_instance;
        pipeline_->record(derived_.setup, info, d.range,
                          drawid_offset + (info.increment_draw_id ? uint32_t(first) : 0), nullptr,
                          d.device ? &*d.device : nullptr);
      }
      if (first == draws.size()) return;
    }

    // Derived state. The epoch is read before any storage is: a rename after it makes the
    // setup stale, and the next draw sees the epoch moved.
    ++derivations_;
    derived_.setup.reset();
    const uint64_t rename_epoch = ResourceImpl::rename_epoch();
    const compiler::ShaderInfo& vs_info = compiled_of(vs).info;
    const compiler::ShaderInfo& last_info = gs ? compiled_of(gs).info : vs_info;
    const compiler::ShaderInfo fs_info = fs ? compiled_of(fs).info : compiler::ShaderInfo{};
    compiler::LinkOptions lo;
    lo.sprite_coord_is_texcoord = screen_->get_param(Cap::TGSI_TEXCOORD) != 0;
    const compiler::FsLinkage linkage =
        fs ? compiler::link_fs_inputs(last_info, fs_info, lo) : compiler::FsLinkage{};
    auto setup_ptr = std::make_shared<draw::DrawSetup>();
    draw::DrawSetup& setup = *setup_ptr;
    DrawResources used;
    if (indirect_args) used.reads.push_back(indirect_args);
    fill_draw_setup(state_, screen_->id(), vs_info, last_info, fs_info, linkage, info, &setup,
                    &used);
    if (gs) fill_geometry_setup(vs_info, last_info, info.mode, &setup.gs);
    fill_stream_output_setup(state_, screen_->id(), (gs ? gs : vs)->state.stream_output, &setup.so,
                             &used);
    if (empty_fb) setup.rasterizer.rasterizer_discard = true;

    // User indices: copied into a device buffer that the scene keeps.
    if (info.index_size && info.has_user_indices) {
      if (!info.index_user) runtime::invalid("has_user_indices without index_user");
      uint64_t end = 0;
      for (const CallDraw& d : draws) {
        end = std::max<uint64_t>(end, (uint64_t(d.range.start) + d.range.count) * info.index_size);
      }
      setup.index_buffer = queue_.create_buffer_from(info.index_user, end);
      setup.index_offset = 0;
      setup.index_size_bytes = end;
    }

    auto vs_prog =
        program_for(compiled_of(vs), "vertex.cl", screen_->cl_device(), screen_->programs());
    std::shared_ptr<const StageProgram> gs_prog, fs_prog;
    if (gs) {
      gs_prog = program_for(compiled_of(gs), "gs.cl", screen_->cl_device(), screen_->programs());
    }
    if (fs) {
      fs_prog = program_for(compiled_of(fs), "tile.cl", screen_->cl_device(), screen_->programs());
    }

    // Queries and the render condition.
    // Occlusion counts are added to the queries per scene, other counts per draw.
    const bool per_scene = counting && queries_.counts_per_scene();
    if (counting && queries_.needs_device_counts() && !per_scene)
      setup.counters = queries_.draw_counters();
    setup.count_fragments = counting && queries_.needs_fragment_counts();
    setup.count_primitives = counting && queries_.needs_primitive_counts();
    setup.exact_records = counting && !per_scene;  // counts.rasterized below
    if (state_.render_cond_query) {
      QueryImpl& q = query_of(state_.render_cond_query, screen_->id(), "render condition");
      const bool occlusion = q.type == QueryType::OCCLUSION_COUNTER ||
                             q.type == QueryType::OCCLUSION_PREDICATE ||
                             q.type == QueryType::OCCLUSION_PREDICATE_CONSERVATIVE;
      // A skipped draw captures nothing either: with stream output the condition is
      // evaluated before the draw (the device-side predicate only gates the tile pass).
      if (q.ended && occlusion && !setup.so.active) {
        // Evaluated on the device: the query's counter is final when the draw runs.
        setup.predicate = q.words;
        setup.skip_when_true = state_.render_cond_condition;
      } else {
        // The condition may read this context's own rendering: that must have run.
        flush_scene();
        if (!render_condition_allows()) return;
      }
    }
    // Layered rendering: a GS LAYER output with layered attachments.
    if (gs) setup.layers = draw_layers(setup, last_info);
    if (setup.layers > 1)
      setup.layer_reg = int32_t(last_info.find_output(compiler::Semantic::LAYER, 0)->reg);

    // The scene: draws whose passes need per-draw scratch run alone, and so do draws that
    // active queries count per draw (e.g. the record count on the host); a draw that
    // would overflow the scene's limits starts a new one.
    if (!pipeline_) pipeline_ = std::make_unique<draw::DrawPipeline>(queue_, screen_->programs());
    const uint32_t vs_outputs = std::max<uint32_t>(vs_info.num_outputs, 1);
    setup.vs.num_outputs = vs_outputs;  // for the scratch estimates before bind_stages
    // The geometry stage is bound below (bind_stages): runs_alone cannot see it yet.
    const bool alone = gs || draw::DrawPipeline::runs_alone(setup) || (counting && !per_scene);
    if (alone) flush_scene();
    // Occlusion counts go to the counter buffer of the scene a draw joins (made after
    // the last flush_scene before the draw's record).
    const bool scene_counted = per_scene && queries_.needs_device_counts();
    auto join_scene_counters = [&](draw::DrawSetup* st) {
      if (!scene_query_counters_()) scene_query_counters_ = queries_.draw_counters();
      st->counters = scene_query_counters_;
    };

    // The stages' resources go to the scene's tables (again for each draw that runs alone:
    // running a scene empties them).
    auto bind_stages = [&](draw::DrawSetup* st) {
      ResourceTables& tables = pipeline_->tables();
      const uint64_t scene = pipeline_->scene_serial();
      StageResources vr = bind_stage_resources(*vs_prog, ShaderType::VERTEX, state_, screen_->id(),
                                               queue_, &used, &tables);
      st->vs = {vs_prog->tiers->select(scene),
                std::move(vr.args),
                vr.info_index,
                vs_info.num_inputs,
                vs_outputs,
                nullptr,
                vs_prog->tiers};
      if (gs) {
        StageResources gr = bind_stage_resources(*gs_prog, ShaderType::GEOMETRY, state_,
                                                 screen_->id(), queue_, &used, &tables);
        st->gs.stage = {gs_prog->tiers->select(scene),
                        std::move(gr.args),
                        gr.info_index,
                        last_info.num_inputs,
                        std::max<uint32_t>(last_info.num_outputs, 1),
                        nullptr,
                        gs_prog->tiers};
      }
      if (fs) {
        StageResources fr = bind_stage_resources(*fs_prog, ShaderType::FRAGMENT, state_,
                                                 screen_->id(), queue_, &used, &tables);
        st->fs = {fs_prog->tile_variants->generic(),
                  std::move(fr.args),
                  fr.info_index,
                  fs_info.num_inputs,
                  fs_info.num_outputs,
                  fs_prog->tile_variants,
                  nullptr};
      }
    };
    // Huge draws in chunks that fit a scene's scratch budget (draw_split.h). Primitive
    // restart hides the segments on the device, and a cut polygon would gain edges when
    // drawn unfilled: those keep their instances whole.
    const bool split_positions =
        !(info.index_size && info.primitive_restart) &&
        !(info.mode == PrimType::POLYGON && (setup.rasterizer.fill_front != PolygonMode::FILL ||
                                             setup.rasterizer.fill_back != PolygonMode::FILL));
    // The setup bound to the scene being recorded (its stages are in that scene's tables):
    // setup_ptr itself for the first scene, a copy for each later one.
    std::shared_ptr<draw::DrawSetup> bound;
    uint64_t bound_scene = 0;
    auto bind_scene = [&](PrimType mode, uint32_t count, uint32_t instances) {
      if (bound && bound_scene == pipeline_->scene_serial() &&
          pipeline_->fits(*bound, mode, count, instances)) {
        return;
      }
      if (!pipeline_->fits(setup, mode, count, instances) ||
          (bound && bound_scene == pipeline_->scene_serial()) || scene_holds_released()) {
        flush_scene();
      }
      bound = bound ? std::make_shared<draw::DrawSetup>(setup) : setup_ptr;
      if (scene_counted) join_scene_counters(bound.get());
      bind_stages(bound.get());
      note_scene_use(used);
      bound_scene = pipeline_->scene_serial();
    };
    QueryDrawCounts counts;
    for (size_t k = first; k < draws.size(); ++k) {
      const uint32_t draw_id = drawid_offset + (info.increment_draw_id ? uint32_t(k) : 0);
      CallDraw d = draws[k];
      info.instance_count = d.instance_count;
      info.start_instance = d.start_instance;
      const draw::DeviceCount* device = d.device ? &*d.device : nullptr;
      std::vector<draw::DrawChunk> chunks;
      if (device) {
        // One chunk, as the host cannot cut what it does not see.
        plan(d, setup);
        draw::DrawChunk whole;
        whole.mode = info.mode;
        whole.count = d.range.count;
        whole.instance_count = d.instance_count;
        chunks.push_back(whole);
      } else {
        chunks = draw::split_draw(info.mode, d.range.count, d.instance_count,
                                  pipeline_->chunk_positions(setup, info.mode, d.range.count),
                                  split_positions);
      }
      for (const draw::DrawChunk& c : chunks) {
        if (!alone) {
          bind_scene(c.mode, c.count, c.instance_count);
          pipeline_->record(bound, info, d.range, draw_id, &c, device);
          continue;
        }
        auto own = std::make_shared<draw::DrawSetup>(setup);
        if (scene_counted) join_scene_counters(own.get());
        bind_stages(own.get());
        note_scene_use(used);
        if (uint64_t(c.count) * c.instance_count == 0) continue;  // records nothing
        pipeline_->record(std::move(own), info, d.range, draw_id, &c, device);
        flush_scene();
        counts.rasterized += pipeline_->last_stats().records;
      }
      // The draw's vertices, not its chunks' (which repeat the vertices strips share); a
      // device count as its scene (this draw alone) found it.
      if (alone && counting) {
        counts.vertices += device ? pipeline_->last_stats().device_vertices
                                  : uint64_t(d.range.count) * d.instance_count;
      }
    }
    // Reusable by the next draws of this scene while the state stays (see derived_).
    if (bound && bound_scene == pipeline_->scene_serial() && !counting &&
        !state_.render_cond_query && !info.has_user_indices) {
      derived_.setup = bound;
      derived_.index_resource = info.index_size ? info.index_resource : ResourceRef();
      derived_.scene = bound_scene;
      derived_.rename_epoch = rename_epoch;
      state_.dirty = 0;
    }
    if (counting && !per_scene) queries_.after_draw(setup.counters, counts);
  });
}

}  // namespace clpipe::frontend
