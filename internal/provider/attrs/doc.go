// Package attrs holds the schema pieces that several resources and data sources share
// (metadata, state details, labels, timeouts) and the pure converters between them and the
// API types, so each is written and tested once.
package attrs
