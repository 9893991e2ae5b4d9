// The precompiled standard headers of the layers (cmake/Layers.cmake) are
// built with this file; it has nothing of its own.
