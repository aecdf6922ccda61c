package tridentprotect

import _ "embed"

// MappingMarkdown is the user-facing table of the mapping (mapping.md), for the data
// source's documentation: tfplugindocs templates cannot include a file as markdown, so the
// provider either puts it in the data source's MarkdownDescription or keeps a copy in the
// template, which TestMappingDocInTemplate holds to this text.
//
//go:embed mapping.md
var MappingMarkdown string
