import Lake
open Lake DSL

package minimath where
  leanOptions := #[⟨`autoImplicit, false⟩]

@[default_target]
lean_lib Minimath
