#pragma once
/// \file derivative_kind.hpp
/// Kinds of finite differences (PyLops' `kind`), shared by the local and distributed
/// derivative operators.

namespace distlops {

enum class DerivativeKind { forward, backward, centered };

}  // namespace distlops
