"""The Golden Age resolution steps, one module per step or group of steps."""
