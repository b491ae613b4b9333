package progress

import "testing"

func TestReportAndPercent(t *testing.T) {
	var nilFunc Func
	nilFunc.Report(Event{Message: "nobody listens"}) // must not panic
	var got []Event
	f := Func(func(ev Event) { got = append(got, ev) })
	f.Report(Event{Stage: "check", Message: "Checking candidate 2/4…", Done: 1, Total: 4})
	if len(got) != 1 || got[0].Stage != "check" {
		t.Fatalf("events %+v", got)
	}
	for _, c := range []struct {
		ev   Event
		want int
	}{{Event{Done: 1, Total: 4}, 25}, {Event{Done: 3, Total: 3}, 100}, {Event{}, -1}, {Event{Done: 2, Total: -1}, -1}} {
		if p := c.ev.Percent(); p != c.want {
			t.Errorf("%+v: Percent = %d, want %d", c.ev, p, c.want)
		}
	}
}

func TestPercentClamps(t *testing.T) {
	for _, c := range []struct{ done, total, want int }{{0, 0, -1}, {5, 0, -1}, {1, 3, 33}, {7, 5, 100}, {-2, 5, 0}} {
		if p := Percent(c.done, c.total); p != c.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", c.done, c.total, p, c.want)
		}
	}
}
