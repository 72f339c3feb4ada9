// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/operators/signal/fft.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/redistribute.hpp"
#include "stage_for.hpp"

namespace distlops {

namespace {

using detail::FftAxis;
using detail::StageFor;

// The validated options of a transform of arrays of shape `dims`.
struct Spec {
  std::string name;
  Shape dims;
  std::vector<int> axes;       // normalised, in the order given
  std::vector<FftAxis> array;  // one per array axis
  int real_axis = -1;
  bool real_model = false;  // real arrays in the domain (real T)
  double scale = 1;
  FFTPlanning planning = FFTPlanning::estimate;

  bool transformed(int k) const { return array[static_cast<std::size_t>(k)].transform; }
  // The global shape after transforming every axis.
  Shape range_shape() const {
    Shape shape;
    for (const FftAxis& a : array)
      shape.push_back(a.range());
    return shape;
  }
};

template <class Value>
std::vector<Value> per_axis(const std::string& name, const char* what,
                            const std::vector<Value>& given, std::size_t naxes, Value fallback) {
  if (given.empty()) return std::vector<Value>(naxes, fallback);
  if (given.size() == 1) return std::vector<Value>(naxes, given[0]);
  if (given.size() != naxes) {
    throw InvalidArgument(name + ": " + what + " has " + std::to_string(given.size()) +
                          " entries for " + std::to_string(naxes) + " axes");
  }
  return given;
}

// Validates the options for a model of scalar type T (the same verdict on every rank given
// the same arguments).
template <Scalar T, class Options>
Spec make_spec(std::string name, const Shape& dims, const Options& options,
               std::vector<int> default_axes, std::size_t min_axes, std::size_t max_axes) {
  Spec spec;
  spec.name = std::move(name);
  spec.dims = dims;
  spec.planning = options.planning;
  spec.real_model = !is_complex_v<T>;
  if (options.real && is_complex_v<T>) {
    throw InvalidArgument(
        spec.name + ": real = true transforms a real model: its scalar type must " +
        "be float or double (the data are then complex), got " + scalar_name<T>());
  }
  const int ndim = static_cast<int>(dims.size());
  if (ndim == 0) throw InvalidArgument(spec.name + ": the arrays must have at least one axis");
  for (Index d : dims) {
    if (d < 0) throw InvalidArgument(spec.name + ": negative extent in dims " + to_string(dims));
  }
  const std::vector<int>& axes = options.axes.empty() ? default_axes : options.axes;
  if (axes.size() < min_axes || axes.size() > max_axes) {
    const std::string expected =
        min_axes == max_axes ? std::to_string(min_axes) : "at least " + std::to_string(min_axes);
    throw InvalidArgument(spec.name + ": " + expected + " axes expected, got " +
                          std::to_string(axes.size()));
  }
  for (int axis : axes) {
    if (axis < -ndim || axis >= ndim) {
      throw InvalidArgument(spec.name + ": axis " + std::to_string(axis) +
                            " is out of range for an array of " + std::to_string(ndim) +
                            " dimension(s)");
    }
    const int normal = axis < 0 ? axis + ndim : axis;
    if (std::find(spec.axes.begin(), spec.axes.end(), normal) != spec.axes.end()) {
      throw InvalidArgument(spec.name + ": axis " + std::to_string(normal) + " is repeated");
    }
    spec.axes.push_back(normal);
  }
  const std::size_t naxes = spec.axes.size();
  const auto nfft = per_axis<Index>(spec.name, "nfft", options.nfft, naxes, 0);
  const auto before =
      per_axis<bool>(spec.name, "ifftshift_before", options.ifftshift_before, naxes, false);
  const auto after =
      per_axis<bool>(spec.name, "fftshift_after", options.fftshift_after, naxes, false);
  spec.array.resize(static_cast<std::size_t>(ndim));
  for (int k = 0; k < ndim; ++k)
    spec.array[static_cast<std::size_t>(k)].length = dims[static_cast<std::size_t>(k)];
  double points = 1;
  for (std::size_t i = 0; i < naxes; ++i) {
    const int k = spec.axes[i];
    FftAxis& a = spec.array[static_cast<std::size_t>(k)];
    if (a.length < 1) {
      throw InvalidArgument(spec.name + ": axis " + std::to_string(k) +
                            " to transform is empty in dims " + to_string(dims));
    }
    if (nfft[i] < 0) {
      throw InvalidArgument(spec.name + ": nfft " + std::to_string(nfft[i]) + " for axis " +
                            std::to_string(k) + " is negative");
    }
    a.transform = true;
    a.nfft = nfft[i] == 0 ? a.length : nfft[i];
    a.real = options.real && i + 1 == naxes;
    a.ifftshift_before = before[i];
    a.fftshift_after = after[i];
    points *= static_cast<double>(a.nfft);
  }
  if (options.real) spec.real_axis = spec.axes.back();
  switch (options.norm) {
    case FFTNorm::ortho:
      spec.scale = 1.0 / std::sqrt(points);
      break;
    case FFTNorm::one_over_n:
      spec.scale = 1.0 / points;
      break;
    case FFTNorm::none:
      spec.scale = 1.0;
      break;
  }
  return spec;
}

// ---- local --------------------------------------------------------------------------------------

template <Scalar T, MemorySpace Space>
class LocalTransform final
    : public LinearOperatorBase<LocalArray<T, Space>, LocalArray<complex_type_t<T>, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using Model = LocalArray<T, Space>;
  using Data = LocalArray<complex_type_t<T>, Space>;
  explicit LocalTransform(const Spec& spec)
      : LinearOperatorBase<Model, Data>(spec.dims, spec.range_shape(), spec.name),
        stage_(spec.array, spec.scale, spec.planning, {}, {}, spec.real_model) {}
  void forward(const Model& x, Data& y) const override { stage_.forward(x.data(), y.data()); }
  void adjoint(const Data& y, Model& x) const override { stage_.adjoint(y.data(), x.data()); }

 private:
  StageFor<Space, T> stage_;
};

template <Scalar T, MemorySpace Space>
local::FFTOperator<T, Space> make_local(const Spec& spec) {
  return local::FFTOperator<T, Space>::template make<LocalTransform<T, Space>>(spec);
}

// ---- distributed --------------------------------------------------------------------------------

// One step of a distributed transform: FFTs of the local blocks, or an all-to-all.
template <class Stage>
struct Step {
  std::unique_ptr<Stage> stage;
  std::unique_ptr<RedistributePlan> there, back;
};

// What a distributed transform does, before layouts and plans are made: stages (axes to
// transform locally) and moves to a split along another axis (-1: replicate on every rank).
struct Recipe {
  enum class Kind { stage, move } kind;
  std::vector<int> axes;  // stage
  int target = 0;         // move
};

std::vector<int> without(const std::vector<int>& axes, int removed) {
  std::vector<int> result;
  for (int k : axes) {
    if (k != removed) result.push_back(k);
  }
  return result;
}

std::vector<int> without_all(const std::vector<int>& axes, const std::vector<int>& removed) {
  std::vector<int> result;
  for (int k : axes) {
    if (std::find(removed.begin(), removed.end(), k) == removed.end()) result.push_back(k);
  }
  return result;
}

// The stages and moves for `spec` on arrays split along axis `a` over several ranks.
std::vector<Recipe> recipes(const Spec& spec, int a, FFTOutputLayout output) {
  const std::vector<int>& S = spec.axes;
  const int ndim = static_cast<int>(spec.dims.size());
  const Shape out = spec.range_shape();
  if (!spec.transformed(a)) return {{Recipe::Kind::stage, S, 0}};
  if (ndim == 1) {
    // No other axis to split along: every rank transforms the whole array.
    return {{Recipe::Kind::move, {}, -1}, {Recipe::Kind::stage, S, 0}, {Recipe::Kind::move, {}, 0}};
  }
  const bool real_split = spec.real_axis == a;
  // The other split axis: as long as possible while the array is split along it (to spread
  // the work), and for a real split axis preferably one that is not transformed (one
  // all-to-all fewer).
  int b = -1;
  auto better = [&](int k) {
    if (b < 0) return true;
    if (real_split && spec.transformed(b) != spec.transformed(k)) return !spec.transformed(k);
    const Index extent_b = real_split ? spec.dims[b] : out[b];
    const Index extent_k = real_split ? spec.dims[k] : out[k];
    return extent_k > extent_b;
  };
  for (int k = 0; k < ndim; ++k) {
    if (k != a && better(k)) b = k;
  }
  std::vector<Recipe> steps;
  int last = a;
  if (real_split) {
    // The real-to-complex transform comes first and needs the split axis whole.
    steps.push_back({Recipe::Kind::move, {}, b});
    steps.push_back({Recipe::Kind::stage, without(S, b), 0});
    last = b;
    if (spec.transformed(b)) {
      steps.push_back({Recipe::Kind::move, {}, a});
      steps.push_back({Recipe::Kind::stage, {b}, 0});
      last = a;
    }
  } else {
    const std::vector<int> first = without(S, a);
    if (!first.empty()) steps.push_back({Recipe::Kind::stage, first, 0});
    steps.push_back({Recipe::Kind::move, {}, b});
    steps.push_back({Recipe::Kind::stage, {a}, 0});
    last = b;
  }
  if (output == FFTOutputLayout::same_as_input && last != a) {
    steps.push_back({Recipe::Kind::move, {}, a});
  }
  return steps;
}

// `layout` (a grid cutting several axes, or explicit boxes) with the global shape `shape`: the
// same parts, the extents changed along the axes whose extent changes, which must be whole on
// every rank that owns data for explicit boxes (make_distributed checks it); along those the
// parts of a grid take the default split.
Layout resized_box_layout(const Layout& layout, const Shape& shape) {
  const Shape& old = layout.global_shape();
  const std::size_t ndim = shape.size();
  if (layout.has_grid()) {
    std::vector<std::vector<Index>> extents(ndim);
    for (std::size_t k = 0; k < ndim; ++k) {
      const std::span<const Index> offsets = layout.grid_offsets(static_cast<int>(k));
      if (shape[k] == old[k]) {
        for (std::size_t part = 0; part + 1 < offsets.size(); ++part)
          extents[k].push_back(offsets[part + 1] - offsets[part]);
      } else {
        extents[k] = default_split(shape[k], static_cast<int>(offsets.size()) - 1);
      }
    }
    return Layout(layout.communicator(), shape, LayoutOptions{.grid_extents = extents});
  }
  std::vector<ArrayBox> boxes;
  for (int r = 0; r < layout.size(); ++r) {
    ArrayBox box = layout.box(r);
    for (std::size_t k = 0; k < ndim; ++k) {
      if (shape[k] == old[k]) continue;
      if (box.size() > 0) {
        box.lower[k] = 0, box.upper[k] = shape[k];
      } else {
        box.lower[k] = std::min(box.lower[k], shape[k]);
        box.upper[k] = std::min(box.upper[k], shape[k]);
      }
    }
    boxes.push_back(box);
  }
  return Layout(layout.communicator(), shape, LayoutOptions{.boxes = boxes});
}

// What a transform on a box layout (a grid cutting several axes, or explicit boxes) does: FFTs
// along the axes every rank holds whole (`grid` empty), or a reshape to a grid of `grid` parts
// per axis (the default split along the axes whose parts change).
struct PencilStep {
  std::vector<int> axes;  // a stage
  std::vector<int> grid;  // a move
};

// The steps for `spec` on `input`, round by round until every axis is transformed:
// - a stage transforms the pending axes that are whole on every rank (not before the real axis
//   of a real model is whole: its real-to-complex transform comes first);
// - a move makes the pending axes that are still cut whole, each giving its parts to an axis
//   that is not pending, so that as many as possible become whole in one all-to-all: the real
//   axis first, then from the last axis down, each to the receiver with the most indices per
//   part among those that give every part at least one index (ties: the later axis). An axis
//   that finds none waits for the next round, except the first, which then gives its parts to
//   the other axis with the most indices per part (a pending one when every axis is pending,
//   which then moves on in a later round). Explicit boxes (no grid) go to a balanced grid over
//   the axes that are not pending (default_grid).
// Every move makes at least one axis whole and every stage transforms one, so the rounds end.
std::vector<PencilStep> pencil_steps(const Spec& spec, const Layout& input) {
  const int ndim = static_cast<int>(spec.dims.size());
  Shape shape = spec.dims;
  std::vector<int> grid;  // empty while the layout is made of explicit boxes
  if (input.has_grid()) grid.assign(input.grid().begin(), input.grid().end());
  std::vector<bool> cut(static_cast<std::size_t>(ndim), false);
  for (int k : input.cut_axes())
    cut[k] = true;
  std::vector<int> pending = spec.axes;
  const auto is_pending = [&](int k) {
    return std::find(pending.begin(), pending.end(), k) != pending.end();
  };
  std::vector<PencilStep> steps;
  bool staged = false;
  while (!pending.empty()) {
    if (staged || spec.real_axis < 0 || !cut[spec.real_axis]) {
      std::vector<int> whole;
      for (int k : pending) {
        if (!cut[k]) whole.push_back(k);
      }
      if (!whole.empty()) {
        steps.push_back({whole, {}});
        for (int k : whole)
          shape[k] = spec.array[k].range();
        pending = without_all(pending, whole);
        staged = true;
      }
    }
    if (pending.empty()) break;
    std::vector<int> movers;
    for (int k = ndim; k-- > 0;) {
      if (cut[k] && is_pending(k)) movers.push_back(k);
    }
    const auto real = std::find(movers.begin(), movers.end(), spec.real_axis);
    if (real != movers.end()) std::rotate(movers.begin(), real, real + 1);
    if (grid.empty()) {
      std::vector<int> receivers;
      for (int k = 0; k < ndim; ++k) {
        if (!is_pending(k)) receivers.push_back(k);
      }
      if (receivers.empty()) {
        for (int k = 0; k < ndim; ++k) {
          if (k != movers.front()) receivers.push_back(k);
        }
      }
      grid = default_grid(shape, input.size(), receivers);
    } else {
      for (std::size_t i = 0; i < movers.size(); ++i) {
        const int a = movers[i];
        int best = -1;
        double best_share = 0;
        const auto consider = [&](int k, bool short_allowed) {
          const Index parts = Index(grid[k]) * grid[a];
          if (k == a || (!short_allowed && (is_pending(k) || shape[k] < parts))) return;
          const double share = double(shape[k]) / double(parts);
          if (best < 0 || share >= best_share) best = k, best_share = share;
        };
        for (int k = 0; k < ndim; ++k)
          consider(k, false);
        if (best < 0 && i == 0) {
          for (int k = 0; k < ndim; ++k)
            consider(k, true);
        }
        if (best < 0) continue;
        grid[best] *= grid[a];
        grid[a] = 1;
      }
    }
    for (int k = 0; k < ndim; ++k)
      cut[k] = grid[k] > 1;
    steps.push_back({{}, grid});
  }
  return steps;
}

// The layouts and plans of a distributed transform. The steps before the first stage move
// model values (real for a real model), the first stage maps them to complex values, and the
// steps after it move and transform complex values.
template <class Stage>
struct Chain {
  Layout range;
  std::vector<Step<Stage>> steps;
  std::size_t first_stage = 0;
  std::vector<Index> sizes;  // local elements of the output of each step
};

template <class Stage>
class ChainBuilder {
 public:
  ChainBuilder(const Spec& spec, const Layout& input) : spec_(spec), input_(input) {}

  Chain<Stage> build(FFTOutputLayout output) {
    const Communicator& comm = input_.communicator();
    current_ = input_;
    shape_ = spec_.dims;
    if (input_.replicated()) {
      add_stage(spec_.axes, true);
      return std::move(chain_);
    }
    if (!input_.is_slab()) {
      build_on_boxes(output);
      return std::move(chain_);
    }
    const std::vector<Recipe> list = recipes(spec_, input_.axis(), output);
    if (comm.size() == 1) {
      // One rank holds everything: one stage, and the range carries the axis the steps would
      // end on, so that the range layout does not depend on the number of ranks.
      int axis = input_.axis();
      for (const Recipe& recipe : list) {
        if (recipe.kind == Recipe::Kind::move && recipe.target >= 0) axis = recipe.target;
      }
      chain_.steps.push_back({make_stage(spec_.array, spec_.scale), nullptr, nullptr});
      chain_.range = Layout(comm, spec_.range_shape(), Partition::SCATTER, axis);
      chain_.sizes.push_back(chain_.range.local_size());
      return std::move(chain_);
    }
    std::size_t last_stage = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].kind == Recipe::Kind::stage) last_stage = i;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].kind == Recipe::Kind::stage) {
        add_stage(list[i].axes, i == last_stage);
      } else {
        add_move(list[i].target);
      }
    }
    return std::move(chain_);
  }

 private:
  // A grid cutting several axes or explicit boxes: the steps of pencil_steps(), then back to
  // the input's cut when asked. A 1-d array in explicit boxes has no other axis to cut: it is
  // transformed whole on every rank, as a 1-d slab is.
  void build_on_boxes(FFTOutputLayout output) {
    const Communicator& comm = input_.communicator();
    if (shape_.size() == 1) {
      add_move_to(Layout(comm, shape_, Partition::BROADCAST));
      add_stage(spec_.axes, true);
      add_move_to(output == FFTOutputLayout::same_as_input
                      ? resized_box_layout(input_, shape_)
                      : Layout(comm, shape_, Partition::SCATTER, 0));
      return;
    }
    const std::vector<PencilStep> steps = pencil_steps(spec_, input_);
    std::size_t last_stage = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].grid.empty()) last_stage = i;
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].grid.empty()) {
        add_stage(steps[i].axes, i == last_stage);
      } else {
        add_move_to(grid_layout(steps[i].grid));
      }
    }
    if (output == FFTOutputLayout::same_as_input) {
      const Layout back = resized_box_layout(input_, shape_);
      if (back != current_) add_move_to(back);
    }
  }

  // The current array over `grid`: the current parts along the axes whose number of parts
  // does not change, the default split along the others.
  Layout grid_layout(const std::vector<int>& grid) const {
    std::vector<std::vector<Index>> extents(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) {
      const int axis = static_cast<int>(k);
      if (current_.has_grid() && current_.grid()[k] == grid[k]) {
        const std::span<const Index> offsets = current_.grid_offsets(axis);
        for (std::size_t part = 0; part + 1 < offsets.size(); ++part)
          extents[k].push_back(offsets[part + 1] - offsets[part]);
      } else {
        extents[k] = default_split(shape_[k], grid[k]);
      }
    }
    return Layout(current_.communicator(), shape_, LayoutOptions{.grid_extents = extents});
  }

  // The first stage reads the model: real values for a real model.
  std::unique_ptr<Stage> make_stage(const std::vector<FftAxis>& block, double scale) {
    const bool first = !staged_;
    if (first) chain_.first_stage = chain_.steps.size();
    staged_ = true;
    return std::make_unique<Stage>(block, scale, spec_.planning, Shape{}, Shape{},
                                   first && spec_.real_model);
  }

  // FFTs along `axes` of the current local blocks.
  void add_stage(const std::vector<int>& axes, bool scaled) {
    const int ndim = static_cast<int>(shape_.size());
    const Shape local = current_.local_shape();
    std::vector<FftAxis> block(static_cast<std::size_t>(ndim));
    for (int k = 0; k < ndim; ++k) {
      if (std::find(axes.begin(), axes.end(), k) != axes.end()) {
        block[k] = spec_.array[k];
        shape_[k] = block[k].range();
      } else {
        block[k].length = local[k];
      }
    }
    // An empty box of explicit boxes may be empty along a transformed axis: the stage of a rank
    // that holds nothing reads nothing.
    if (current_.local_size() == 0) {
      for (int k : axes)
        block[k].length = local[k];
    }
    chain_.steps.push_back({make_stage(block, scaled ? spec_.scale : 1.0), nullptr, nullptr});
    Layout next;
    if (current_.replicated()) {
      next = Layout(current_.communicator(), shape_, current_.partition());
    } else if (!current_.is_slab()) {
      next = resized_box_layout(current_, shape_);
    } else {
      std::vector<Shape> locals = current_.local_shapes();
      for (Shape& s : locals) {
        for (int k : axes)
          s[k] = shape_[k];
      }
      next = Layout(current_.communicator(), shape_,
                    LayoutOptions{.axis = current_.axis(), .local_shapes = locals});
    }
    advance(next);
  }

  // An all-to-all to a split along `target` (-1: every rank gets the whole array). Back along
  // the input's axis, the input's split is kept when the extent did not change.
  void add_move(int target) {
    const Communicator& comm = current_.communicator();
    Layout next;
    if (target < 0) {
      next = Layout(comm, shape_, Partition::BROADCAST);
    } else if (target == input_.axis() && shape_[target] == spec_.dims[target]) {
      std::vector<Shape> locals = input_.local_shapes();
      for (Shape& s : locals) {
        for (std::size_t k = 0; k < s.size(); ++k) {
          if (static_cast<int>(k) != target) s[k] = shape_[k];
        }
      }
      next = Layout(comm, shape_, LayoutOptions{.axis = target, .local_shapes = locals});
    } else {
      next = Layout(comm, shape_, Partition::SCATTER, target);
    }
    chain_.steps.push_back({nullptr, std::make_unique<RedistributePlan>(current_, next),
                            std::make_unique<RedistributePlan>(next, current_)});
    advance(next);
  }

  // A reshape of the current array to `next` (of the current global shape).
  void add_move_to(const Layout& next) {
    chain_.steps.push_back({nullptr, std::make_unique<RedistributePlan>(current_, next),
                            std::make_unique<RedistributePlan>(next, current_)});
    advance(next);
  }

  void advance(const Layout& next) {
    chain_.sizes.push_back(next.local_size());
    current_ = next;
    chain_.range = next;
  }

  const Spec& spec_;
  Layout input_;
  Layout current_;
  Shape shape_;
  bool staged_ = false;
  Chain<Stage> chain_;
};

// The distributed transform of a model of scalar type T (real or complex) into complex data.
template <Scalar T, MemorySpace Space>
class DistributedTransform final
    : public LinearOperatorBase<DistributedArray<T, Space>,
                                DistributedArray<complex_type_t<T>, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using C = complex_type_t<T>;
  using Model = DistributedArray<T, Space>;
  using Data = DistributedArray<C, Space>;
  using Stage = StageFor<Space, T>;

  DistributedTransform(const Layout& layout, const Spec& spec, FFTOutputLayout output)
      : DistributedTransform(layout, spec, ChainBuilder<Stage>(spec, layout).build(output)) {}

  // Step i writes model_buffers_[i % 2] (before the first stage) or buffers_[i % 2] (after
  // it), the last step y; the adjoint of step i writes where the forward read from.
  void forward(const Model& x, Data& y) const override {
    const T* model = x.data();
    const C* source = nullptr;
    const std::size_t count = steps_.size();
    for (std::size_t i = 0; i < count; ++i) {
      const Step<Stage>& step = steps_[i];
      if (i < first_stage_) {
        T* target = model_buffers_[i % 2].data();
        step.there->execute(transport_, model, target);
        model = target;
        continue;
      }
      C* target = i + 1 == count ? y.data() : buffers_[i % 2].data();
      if (i == first_stage_) {
        step.stage->forward(model, target);
      } else if (step.stage) {
        step.stage->forward(source, target);
      } else {
        step.there->execute(transport_, source, target);
      }
      source = target;
    }
  }
  void adjoint(const Data& y, Model& x) const override {
    const C* source = y.data();
    const T* model = nullptr;
    for (std::size_t i = steps_.size(); i-- > 0;) {
      const Step<Stage>& step = steps_[i];
      if (i > first_stage_) {
        C* target = buffers_[(i - 1) % 2].data();
        if (step.stage) {
          step.stage->adjoint(source, target);
        } else {
          step.back->execute(transport_, source, target);
        }
        source = target;
        continue;
      }
      T* target = i == 0 ? x.data() : model_buffers_[(i - 1) % 2].data();
      if (i == first_stage_) {
        step.stage->adjoint(source, target);
      } else {
        step.back->execute(transport_, model, target);
      }
      model = target;
    }
  }

 private:
  DistributedTransform(const Layout& layout, const Spec& spec, Chain<Stage> chain)
      : LinearOperatorBase<Model, Data>(layout, chain.range, spec.name),
        steps_(std::move(chain.steps)),
        first_stage_(chain.first_stage) {
    // The outputs of the steps but the last, each buffer as large as the largest it holds.
    Index model_sizes[2] = {0, 0}, sizes[2] = {0, 0};
    for (std::size_t i = 0; i + 1 < steps_.size(); ++i) {
      Index& size = i < first_stage_ ? model_sizes[i % 2] : sizes[i % 2];
      size = std::max(size, chain.sizes[i]);
    }
    for (int i = 0; i < 2; ++i) {
      if (model_sizes[i] > 0) model_buffers_[i] = Buffer<T, Space>(model_sizes[i]);
      if (sizes[i] > 0) buffers_[i] = Buffer<C, Space>(sizes[i]);
    }
  }

  std::vector<Step<Stage>> steps_;
  std::size_t first_stage_ = 0;
  mutable Buffer<T, Space> model_buffers_[2];
  mutable Buffer<C, Space> buffers_[2];
  // Carries the plans' data between ranks, kept between applies.
  KeptTransport<Space> transport_;
};

template <Scalar T, MemorySpace Space, class Options>
FFTOperator<T, Space> make_distributed(const Layout& layout, const Options& options,
                                       const std::string& name, std::vector<int> default_axes,
                                       std::size_t min_axes, std::size_t max_axes) {
  if (!layout.valid()) throw InvalidArgument(name + ": empty layout");
  Fingerprint fingerprint;
  fingerprint.add(std::span<const int>(options.axes))
      .add(std::span<const Index>(options.nfft))
      .add(options.norm)
      .add(options.real)
      .add(options.output)
      .add(options.planning);
  for (bool flag : options.ifftshift_before)
    fingerprint.add(flag);
  fingerprint.add(-1);
  for (bool flag : options.fftshift_after)
    fingerprint.add(flag);
  std::optional<Spec> spec;
  collective_check(layout.communicator(), fingerprint, name + " options", [&] {
    if (layout.masked()) {
      throw InvalidArgument(name + ": arrays with a mask are not supported (" + layout.describe() +
                            ")");
    }
    spec = make_spec<T>(name, layout.global_shape(), options, std::move(default_axes), min_axes,
                        max_axes);
    if (!layout.has_grid() && options.output == FFTOutputLayout::same_as_input) {
      // Explicit boxes can be kept only along the axes whose extent stays.
      const Shape range = spec->range_shape();
      for (int k : layout.cut_axes()) {
        if (range[k] != spec->dims[k]) {
          throw InvalidArgument(
              name + ": output = same_as_input keeps the input's boxes, but axis " +
              std::to_string(k) + " is cut by them and its extent changes from " +
              std::to_string(spec->dims[k]) + " to " + std::to_string(range[k]) + " (" +
              layout.describe() +
              "); use output = transposed, or a grid layout (LayoutOptions::grid)");
        }
      }
    }
  });
  return FFTOperator<T, Space>::template make<DistributedTransform<T, Space>>(layout, *spec,
                                                                              options.output);
}

constexpr std::size_t any_number = 1 << 16;

}  // namespace

std::vector<double> fft_frequencies(Index nfft, double sampling, bool real, bool shifted) {
  if (nfft < 1) throw InvalidArgument("fft_frequencies: nfft must be positive");
  const Index count = real ? nfft / 2 + 1 : nfft;
  std::vector<double> frequencies(static_cast<std::size_t>(count));
  for (Index i = 0; i < count; ++i) {
    const Index bin = real || i <= (nfft - 1) / 2 ? i : i - nfft;
    frequencies[static_cast<std::size_t>(i)] =
        static_cast<double>(bin) / (static_cast<double>(nfft) * sampling);
  }
  if (!shifted) return frequencies;
  std::vector<double> result(frequencies.size());
  for (Index o = 0; o < count; ++o)
    result[static_cast<std::size_t>(o)] =
        frequencies[static_cast<std::size_t>((o + count - count / 2) % count)];
  return result;
}

namespace local {

template <Scalar T, MemorySpace Space>
FFTOperator<T, Space> FFT(const Shape& dims, const FFTOptions& options) {
  return make_local<T, Space>(make_spec<T>("FFT", dims, options, {-1}, 1, 1));
}
template <Scalar T, MemorySpace Space>
FFTOperator<T, Space> FFT2D(const Shape& dims, const FFTOptions& options) {
  return make_local<T, Space>(make_spec<T>("FFT2D", dims, options, {-2, -1}, 2, 2));
}
template <Scalar T, MemorySpace Space>
FFTOperator<T, Space> FFTND(const Shape& dims, const FFTOptions& options) {
  return make_local<T, Space>(make_spec<T>("FFTND", dims, options, {-3, -2, -1}, 1, any_number));
}

#define DISTLOPS_INSTANTIATE_LOCAL_FFT(T, Space)                                   \
  template FFTOperator<T, Space> FFT<T, Space>(const Shape&, const FFTOptions&);   \
  template FFTOperator<T, Space> FFT2D<T, Space>(const Shape&, const FFTOptions&); \
  template FFTOperator<T, Space> FFTND<T, Space>(const Shape&, const FFTOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_LOCAL_FFT)
#undef DISTLOPS_INSTANTIATE_LOCAL_FFT

}  // namespace local

template <Scalar T, MemorySpace Space>
FFTOperator<T, Space> FFT2D(const Layout& layout, const DistributedFFTOptions& options) {
  return make_distributed<T, Space>(layout, options, "FFT2D", {0, 1}, 2, 2);
}
template <Scalar T, MemorySpace Space>
FFTOperator<T, Space> FFTND(const Layout& layout, const DistributedFFTOptions& options) {
  return make_distributed<T, Space>(layout, options, "FFTND", {0, 1, 2}, 1, any_number);
}

#define DISTLOPS_INSTANTIATE_DISTRIBUTED_FFT(T, Space)                                         \
  template FFTOperator<T, Space> FFT2D<T, Space>(const Layout&, const DistributedFFTOptions&); \
  template FFTOperator<T, Space> FFTND<T, Space>(const Layout&, const DistributedFFTOptions&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_DISTRIBUTED_FFT)
#undef DISTLOPS_INSTANTIATE_DISTRIBUTED_FFT

}  // namespace distlops
