"""Convolution: conv_general_dilated, its geometry (dimension numbers, padding, shapes) and patches."""
