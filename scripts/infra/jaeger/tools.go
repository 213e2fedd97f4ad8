//go:build tools

package tools

import _ "github.com/jaegertracing/jaeger/cmd/all-in-one"
