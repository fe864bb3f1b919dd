package main

import (
	"flag"
	"fmt"
	"strings"
)

// envPrefix prefixes the environment variables that stand in for flags:
// --nats-url is A2UI_STREAM_NATS_URL.
const envPrefix = "A2UI_STREAM_"

// envName returns the environment variable of a flag.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// applyEnv sets each flag of fs not given on the command line from its
// environment variable, when that is set. getenv is os.Getenv in
// production. A bad value is a flagValueError naming the variable.
func applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || given[f.Name] {
			return
		}
		name := envName(f.Name)
		v := getenv(name)
		if v == "" {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = flagValueError{fmt.Sprintf("$%s: %v", name, serr)}
		}
	})
	return err
}
