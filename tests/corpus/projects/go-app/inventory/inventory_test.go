package inventory

import (
	"errors"
	"reflect"
	"testing"
)

func sample() []Item {
	return []Item{{"bolt", 10, 0.5}, {"nut", 4, 0.25}, {"gear", 1, 3}}
}

func TestParseLine(t *testing.T) {
	got, err := ParseLine("bolt, 10, 0.5")
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	want := Item{"bolt", 10, 0.5}
	if got != want {
		t.Errorf("ParseLine() = %+v, want %+v", got, want)
	}
}

func TestParseLineBad(t *testing.T) {
	_, err := ParseLine("bolt,10")
	if !errors.Is(err, ErrBadLine) {
		t.Errorf("expected ErrBadLine, got %v", err)
	}
}

func TestTotal(t *testing.T) {
	if got := Total(sample()); got != 9.0 {
		t.Errorf("Total() = %v, want %v", got, 9.0)
	}
}

func TestNames(t *testing.T) {
	got := Names(sample())
	want := []string{"bolt", "gear", "nut"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Names() mismatch\n got: %v\nwant: %v", got, want)
	}
}

func TestTable(t *testing.T) {
	cases := []struct {
		name  string
		line  string
		price float64
	}{
		{"simple", "a,1,2.5", 2.5},
		{"spaces", " b , 2 , 3.25 ", 3.25},
		{"comma-decimal", "c,1,3,5", 3.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it, err := ParseLine(tc.line)
			if err != nil {
				t.Fatalf("ParseLine(%q) error: %v", tc.line, err)
			}
			if it.Price != tc.price {
				t.Errorf("price = %v, want %v", it.Price, tc.price)
			}
		})
	}
}

func TestCheapestEmpty(t *testing.T) {
	t.Log("checking cheapest of an empty slice")
	_ = Cheapest(nil)
}
