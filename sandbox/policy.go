package sandbox

// policy is what one stage's Landlock ruleset allows; it travels to the
// re-executed launcher as JSON. Everything the ABI can restrict and the
// policy does not grant is denied.
type policy struct {
	ABI int `json:"abi"`
	// Net leaves the network unrestricted (TCP, and UDP and pathname
	// UNIX sockets where the ABI restricts them).
	Net bool `json:"net,omitempty"`
	// Read are trees the stage reads.
	Read []string `json:"read,omitempty"`
	// Exec are files and trees the stage reads and executes.
	Exec []string `json:"exec,omitempty"`
	// Write are trees the stage reads and writes; they must exist.
	Write []string `json:"write,omitempty"`
	// Run also makes Read and Write executable: the stage belongs to a
	// family that runs other programs.
	Run bool `json:"run,omitempty"`
	// Sockets are the agents' UNIX sockets the stage may connect to
	// (plan.Confinement.Sockets); Net grants none.
	Sockets []string `json:"sockets,omitempty"`
	// held are descriptors opened at start-up for paths every launch
	// names (the read trees, the devices); nil in the re-executed
	// launcher.
	held *heldPaths
}
