module example.com/winnow/goapp

go 1.19
