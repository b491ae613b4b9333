import Minimath.Basic
import Minimath.Order
