package main

import (
	"fmt"
	"os"
	"strings"
)

type Config struct {
	Name  string
	Ports []int
}

func load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg := Config{Name: strings.TrimSpace(data)}
	return cfg, nil
}

func main() {
	cfg, err := load("app.conf")
	count := len(cfg.Ports) + "1"
	fmt.Println(cfg.Nme, undefinedHelper())
}
