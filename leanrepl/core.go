package leanrepl

import "strings"

// coreNames are constants of Lean's core library (Init) and Batteries that
// statements use often. A Mathlib source tree does not contain them, so the
// unknown-name check knows them itself.
var coreNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(coreNameList) {
		m[n] = true
	}
	return m
}()

const coreNameList = `
Nat Int Float String Char Bool Unit PUnit PEmpty Empty Fin UInt8 UInt16 UInt32 UInt64 USize List Array Option Sum PSum
Prod PProd MProd Sigma PSigma Subtype Quot Quotient Setoid Decidable DecidableEq DecidablePred DecidableRel Inhabited
Nonempty True False And Or Not Iff Eq Ne HEq Exists Function Id Thunk IO Except ByteArray Rat Std Lean
id absurd cast congrArg congrFun congr rfl trivial propext funext Classical Classical.choice Classical.choose
Classical.choose_spec Classical.em Classical.byContradiction Classical.propDecidable Classical.not_not Classical.dec
Eq.refl Eq.symm Eq.trans Eq.mp Eq.mpr Eq.subst Eq.rec Eq.ndrec HEq.refl Iff.intro Iff.mp Iff.mpr Iff.refl And.intro
And.left And.right Or.inl Or.inr Or.elim Exists.intro Exists.choose False.elim True.intro absurd Not.elim
Function.comp Function.const Function.Injective Function.Surjective Function.Bijective Function.LeftInverse
Function.RightInverse Function.invFun Function.update Function.swap Function.uncurry Function.curry
Nat.succ Nat.zero Nat.pred Nat.add Nat.sub Nat.mul Nat.div Nat.mod Nat.pow Nat.gcd Nat.lcm Nat.log2 Nat.sqrt Nat.min
Nat.max Nat.le Nat.lt Nat.ble Nat.beq Nat.rec Nat.recOn Nat.casesOn Nat.fold Nat.repr Nat.toFloat Nat.cast Nat.land
Nat.lor Nat.xor Nat.shiftLeft Nat.shiftRight Nat.testBit Nat.bodd Nat.isPowerOfTwo Nat.toDigits Nat.digits Nat.sum
Nat.strongRecOn Nat.le_refl Nat.lt_irrefl Nat.succ_le_iff Nat.Coprime Nat.all Nat.any Nat.decEq
Int.natAbs Int.toNat Int.ofNat Int.negSucc Int.emod Int.ediv Int.fmod Int.fdiv Int.tmod Int.tdiv Int.gcd Int.lcm
Int.sign Int.neg Int.add Int.sub Int.mul Int.div Int.mod Int.pow Int.cast Int.floor Int.ceil Int.fract Int.toNat'
Int.natMod Int.bmod Int.le Int.lt Int.decEq
List.length List.map List.filter List.filterMap List.foldl List.foldr List.sum List.prod List.range List.reverse List.head
List.head? List.head! List.headD List.tail List.get List.get? List.getD List.getLast List.getLast? List.nil List.cons
List.append List.join List.flatten List.flatMap List.bind List.take List.drop List.zip List.zipWith List.unzip
List.replicate List.count List.countP List.Nodup List.Perm List.Mem List.all List.any List.maximum List.minimum
List.maximum? List.minimum? List.iota List.enum List.lookup List.find? List.contains List.elem List.erase List.insert
List.isEmpty List.length_cons List.Sublist List.IsPrefix List.IsSuffix List.IsInfix List.Pairwise List.Chain
List.Chain' List.dedup List.eraseDups List.toArray List.attach List.pmap List.foldlM List.mapM List.partition
List.splitAt List.rotate List.intersperse List.intercalate List.product List.sigma List.finRange List.ofFn List.set
List.modify List.removeAll List.diff List.union List.inter List.Sorted List.mergeSort List.insertionSort List.sum_cons
Array.size Array.get Array.get! Array.getD Array.push Array.pop Array.map Array.foldl Array.foldr Array.toList
Array.mkArray Array.range Array.sum Array.contains Array.set Array.swap Array.empty Array.mk
Option.some Option.none Option.get Option.get! Option.getD Option.isSome Option.isNone Option.map Option.bind
Option.elim Option.toList some none
Sum.inl Sum.inr Sum.elim Prod.fst Prod.snd Prod.mk Prod.map Prod.swap Fin.val Fin.mk Fin.last Fin.succ Fin.castSucc
Fin.ofNat Fin.cons Fin.snoc Fin.elim0 Fin.isLt Subtype.val Subtype.mk Subtype.property Sigma.mk Sigma.fst Sigma.snd
PSigma.mk Quot.mk Quot.lift Quot.ind Quotient.mk Quotient.mk' Quotient.lift Quotient.ind Quot.sound Quotient.sound
Bool.true Bool.false true false not and or xor Bool.and Bool.or Bool.not Bool.xor Bool.toNat
String.length String.append String.toList String.mk String.get String.push String.join String.data String.isEmpty
Char.ofNat Char.toNat Char.isDigit Char.isAlpha Char.isUpper Char.isLower Char.val
max min ite dite cond decide Decidable.decide Decidable.isTrue Decidable.isFalse Decidable.em Decidable.byCases
HAdd HSub HMul HDiv HMod HPow HAppend HAnd HOr HXor HShiftLeft HShiftRight Add Sub Mul Div Mod Neg Pow NatPow
HomogeneousPow OfNat OfScientific Dvd LE LT Max Min Membership Append BEq Hashable Repr ToString Functor Monad Pure
Bind Applicative Seq SeqLeft SeqRight GetElem GetElem? Coe CoeTail CoeHead CoeSort CoeFun CoeOut CoeDep NatCast
IntCast Zero One Inv SMul HSMul HVAdd VAdd EmptyCollection Singleton Insert Sep Union Inter SDiff HasSubset
HasSSubset Ord Ordering compare Ordering.lt Ordering.eq Ordering.gt WellFounded WellFoundedRelation Acc InvImage
Nat.lt_wfRel measure sizeOf SizeOf Sizeof Task Thunk.get StateM StateT ReaderT ExceptT OptionT EStateM
HAdd.hAdd HSub.hSub HMul.hMul HDiv.hDiv HMod.hMod HPow.hPow Neg.neg Inv.inv OfNat.ofNat Dvd.dvd LE.le LT.lt
GE.ge GT.gt Max.max Min.min Membership.mem
`
