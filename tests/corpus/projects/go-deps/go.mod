module example.com/winnow/godeps

go 1.19
