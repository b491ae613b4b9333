import Lake
open Lake DSL

package DriftExample where
  leanOptions := #[⟨`autoImplicit, false⟩, ⟨`pp.unicode.fun, true⟩]

require minimath from git
  "https://example.invalid/minimath.git" @ "main"

@[default_target]
lean_lib DriftExample where
  globs := #[.submodules `DriftExample]
