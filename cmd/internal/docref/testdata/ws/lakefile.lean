import Lake
open Lake DSL
package ws
lean_lib Lib
