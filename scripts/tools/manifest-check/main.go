// manifest-check decodes every document of a rendered multi-document YAML stream (stdin) strictly into
// the Go types the API server itself uses (k8s.io/api, and the operators' own types for the two custom
// resources the chart renders). It reports, per document, unknown fields, duplicate fields, wrong types
// and missing required fields, as one JSON object per line, and exits 1 if any document has a problem.
//
// Required follows the rule Kubernetes' OpenAPI generator uses: a struct field whose json tag has no
// omitempty is required. Pointer fields are left out (the generator treats their +default markers as
// optional, e.g. GRPCAction.service), as is anything inlined.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

type result struct {
	Index    int      `json:"index"`
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	Problems []string `json:"problems"`
}

func main() {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(os.Stdin))
	failed := false
	out := json.NewEncoder(os.Stdout)
	for index := 0; ; {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "reading the YAML stream:", err)
			os.Exit(2)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		r := check(doc)
		r.Index = index
		index++
		if len(r.Problems) > 0 {
			failed = true
		} else {
			r.Problems = []string{}
		}
		_ = out.Encode(r)
	}
	if failed {
		os.Exit(1)
	}
}

func stripComments(doc []byte) []byte {
	var keep [][]byte
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			keep = append(keep, line)
		}
	}
	return bytes.Join(keep, []byte("\n"))
}

func check(doc []byte) result {
	var r result
	data, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		r.Problems = append(r.Problems, "yaml: "+err.Error())
		return r
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(data, &head)
	r.Kind, r.Name = head.Kind, head.Metadata.Name
	newObject, known := types[head.APIVersion+"/"+head.Kind]
	if !known {
		r.Problems = append(r.Problems, fmt.Sprintf("no Go type for apiVersion %q kind %q", head.APIVersion, head.Kind))
		return r
	}
	obj := newObject()
	// The API server's own strict decoding: case-sensitive, unknown and duplicate fields reported.
	strict, err := sigsjson.UnmarshalStrict(data, obj)
	if err != nil {
		r.Problems = append(r.Problems, "decode: "+err.Error())
	}
	for _, e := range strict {
		r.Problems = append(r.Problems, "strict: "+e.Error())
	}
	var raw interface{}
	_ = json.Unmarshal(data, &raw)
	r.Problems = append(r.Problems, missingRequired(reflect.TypeOf(obj).Elem(), raw, "")...)
	return r
}

// missingRequired walks the raw document beside its Go type and names every required field it lacks.
func missingRequired(t reflect.Type, raw interface{}, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var problems []string
	switch t.Kind() {
	case reflect.Struct:
		m, ok := raw.(map[string]interface{})
		if !ok {
			return nil
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" {
				continue
			}
			if f.Anonymous || strings.Contains(opts, "inline") {
				problems = append(problems, missingRequired(f.Type, raw, path)...)
				continue
			}
			if name == "" {
				name = f.Name
			}
			value, present := m[name]
			// An object's status is written by its controller, never by the manifest.
			if path == "" && name == "status" {
				continue
			}
			if !present {
				if !strings.Contains(opts, "omitempty") && f.Type.Kind() != reflect.Pointer && !optionalByType(f.Type) {
					problems = append(problems, fmt.Sprintf("missing required field %s", join(path, name)))
				}
				continue
			}
			problems = append(problems, missingRequired(f.Type, value, join(path, name))...)
		}
	case reflect.Slice:
		if items, ok := raw.([]interface{}); ok {
			for i, item := range items {
				problems = append(problems, missingRequired(t.Elem(), item, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case reflect.Map:
		if m, ok := raw.(map[string]interface{}); ok {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				problems = append(problems, missingRequired(t.Elem(), m[k], join(path, k))...)
			}
		}
	}
	return problems
}

// Types that marshal themselves (quantities, int-or-string, times, raw JSON) or are objects' metadata.
func optionalByType(t reflect.Type) bool {
	switch t.String() {
	case "v1.ObjectMeta", "v1.ListMeta", "v1.TypeMeta":
		return true
	}
	return t.Kind() == reflect.Interface || t.Kind() == reflect.Map || t.Kind() == reflect.Slice
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
