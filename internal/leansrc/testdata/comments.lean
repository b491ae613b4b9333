/- block comment /- nested theorem fake1 -/ still comment def fake2 -/
-- line comment theorem fake3

/-- A doc with -/ inside? no: this ends at the first close. -/
def strs : String := "not a /- comment -- here \" theorem fake4"

def chars : List Char := ['"', '\'', '-', '/']

def «weird name» : Nat := 1

def Nat.«also weird».x := 2

def αβγ₁ (x₂ : Nat) : Nat := x₂

theorem uses_guillemet : «weird name» = 1 := rfl

def rawStr := r#"raw "string" with -/ and /-"#

def interp (n : Nat) : String := s!"value {n} -- not a comment"
