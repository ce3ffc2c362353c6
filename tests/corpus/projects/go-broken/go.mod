module example.com/winnow/gobroken

go 1.19
