// Reads a file the caller names, relative to the app's data directory; a failure panics.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func loadConfig(name string) string {
	data, err := os.ReadFile(filepath.Join(os.Getenv("APP_DATA_DIR"), name))
	if err != nil {
		panic(err)
	}
	return string(data)
}

func main() {
	fmt.Println(loadConfig(os.Args[1]))
}
