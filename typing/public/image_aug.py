"""Image augmentations and metrics in the style of dm_pix.

Images are ``[height, width, channels]`` float arrays in ``[0, 1]``; random functions take a key
first and are meant to be ``vmap``-ed over a batch with one key per example.
"""

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import NamedTuple, Optional, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax, random
from jax_core.typing import Array, ArrayLike, DTypeLike, PRNGKeyArray

Augmentation = Callable[[PRNGKeyArray, Array], Array]

# --------------------------------------------------------------------------------------------
# Colour spaces
# --------------------------------------------------------------------------------------------


def split_channels(image: Array, channel_axis: int = -1) -> tuple[Array, Array, Array]:
    if image.shape[channel_axis] != 3:
        raise ValueError(f"expected 3 channels, got shape {image.shape}")
    r, g, b = jnp.split(image, 3, axis=channel_axis)
    return jnp.squeeze(r, channel_axis), jnp.squeeze(g, channel_axis), jnp.squeeze(b, channel_axis)


def rgb_to_hsv(image_rgb: Array) -> Array:
    """RGB to HSV, each channel in ``[0, 1]`` (hue as a fraction of the circle)."""
    eps = float(jnp.finfo(image_rgb.dtype).eps)
    image_rgb = jnp.where(jnp.abs(image_rgb) < eps, 0.0, image_rgb)
    red, green, blue = split_channels(image_rgb)
    value = jnp.maximum(jnp.maximum(red, green), blue)
    minimum = jnp.minimum(jnp.minimum(red, green), blue)
    range_ = value - minimum
    safe_value = jnp.where(value > 0, value, 1.0)
    safe_range = jnp.where(range_ > 0, range_, 1.0)
    saturation = jnp.where(value > 0, range_ / safe_value, 0.0)
    norm = 1.0 / (6.0 * safe_range)
    hue = jnp.where(green == value, norm * (blue - red) + 2.0 / 6.0, norm * (red - green) + 4.0 / 6.0)
    hue = jnp.where(red == value, norm * (green - blue), hue)
    hue = jnp.where(range_ > 0, hue, 0.0) + (hue < 0.0).astype(hue.dtype)
    return jnp.stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(image_hsv: Array) -> Array:
    hue, saturation, value = split_channels(image_hsv)
    dh = jnp.mod(hue, 1.0) * 6.0
    dr = jnp.clip(jnp.abs(dh - 3.0) - 1.0, 0.0, 1.0)
    dg = jnp.clip(2.0 - jnp.abs(dh - 2.0), 0.0, 1.0)
    db = jnp.clip(2.0 - jnp.abs(dh - 4.0), 0.0, 1.0)
    one_minus_s = 1.0 - saturation
    red = value * (one_minus_s + saturation * dr)
    green = value * (one_minus_s + saturation * dg)
    blue = value * (one_minus_s + saturation * db)
    return jnp.stack([red, green, blue], axis=-1)


def rgb_to_grayscale(image: Array, keep_dims: bool = False) -> Array:
    red, green, blue = split_channels(image)
    gray = 0.2989 * red + 0.5870 * green + 0.1140 * blue
    if keep_dims:
        return jnp.broadcast_to(gray[..., None], image.shape)
    return gray


# --------------------------------------------------------------------------------------------
# Colour augmentations
# --------------------------------------------------------------------------------------------


def adjust_brightness(image: Array, delta: ArrayLike) -> Array:
    return image + delta


def adjust_contrast(image: Array, factor: ArrayLike) -> Array:
    mean = jnp.mean(image, axis=(-3, -2), keepdims=True)
    return jnp.asarray(factor) * (image - mean) + mean


def adjust_gamma(image: Array, gamma: ArrayLike, gain: ArrayLike = 1.0) -> Array:
    return jnp.multiply(gain, image**gamma)


def adjust_hue(image: Array, delta: ArrayLike) -> Array:
    hsv = rgb_to_hsv(image)
    hue = jnp.mod(hsv[..., 0] + delta, 1.0)
    return hsv_to_rgb(hsv.at[..., 0].set(hue))


def adjust_saturation(image: Array, factor: ArrayLike) -> Array:
    hsv = rgb_to_hsv(image)
    saturation = jnp.clip(hsv[..., 1] * factor, 0.0, 1.0)
    return hsv_to_rgb(hsv.at[..., 1].set(saturation))


def random_brightness(key: PRNGKeyArray, image: Array, max_delta: float) -> Array:
    delta = random.uniform(key, (), minval=-max_delta, maxval=max_delta)
    return adjust_brightness(image, delta)


def random_contrast(key: PRNGKeyArray, image: Array, lower: float, upper: float) -> Array:
    return adjust_contrast(image, random.uniform(key, (), minval=lower, maxval=upper))


def random_hue(key: PRNGKeyArray, image: Array, max_delta: float) -> Array:
    return adjust_hue(image, random.uniform(key, (), minval=-max_delta, maxval=max_delta))


def random_saturation(key: PRNGKeyArray, image: Array, lower: float, upper: float) -> Array:
    return adjust_saturation(image, random.uniform(key, (), minval=lower, maxval=upper))


def solarize(image: Array, threshold: ArrayLike) -> Array:
    return jnp.where(image < threshold, image, 1.0 - image)


def posterize(image: Array, bits: int) -> Array:
    levels = 1 << bits
    return jnp.floor(image * levels) / levels


# --------------------------------------------------------------------------------------------
# Geometric augmentations
# --------------------------------------------------------------------------------------------


def flip_left_right(image: Array) -> Array:
    return jnp.flip(image, axis=-2)


def flip_up_down(image: Array) -> Array:
    return jnp.flip(image, axis=-3)


def rot90(image: Array, k: int = 1) -> Array:
    return jnp.rot90(image, k, axes=(-3, -2))


def random_flip_left_right(key: PRNGKeyArray, image: Array, probability: float = 0.5) -> Array:
    should_flip = random.uniform(key) < probability
    return lax.cond(should_flip, flip_left_right, lambda x: x, image)


def random_flip_up_down(key: PRNGKeyArray, image: Array, probability: float = 0.5) -> Array:
    return jnp.where(random.uniform(key) < probability, flip_up_down(image), image)


def random_crop(key: PRNGKeyArray, image: Array, crop_sizes: Sequence[int]) -> Array:
    """A window of ``crop_sizes`` at a uniformly random position."""
    if len(crop_sizes) != image.ndim:
        raise ValueError(f"crop_sizes {crop_sizes} does not match the rank of {image.shape}")
    limits = [dim - size + 1 for dim, size in zip(image.shape, crop_sizes)]
    if min(limits) < 1:
        raise ValueError(f"crop {crop_sizes} larger than the image {image.shape}")
    keys = random.split(key, len(limits))
    starts = [random.randint(k, (), 0, limit) for k, limit in zip(keys, limits)]
    return lax.dynamic_slice(image, starts, crop_sizes)


def center_crop(image: Array, height: int, width: int) -> Array:
    top = (image.shape[0] - height) // 2
    left = (image.shape[1] - width) // 2
    return lax.slice(image, (top, left, 0), (top + height, left + width, image.shape[2]))


def pad_to_size(image: Array, target_height: int, target_width: int, mode: str = "constant") -> Array:
    """Pads symmetrically to at least ``target_height x target_width``."""
    pad_h = max(target_height - image.shape[0], 0)
    pad_w = max(target_width - image.shape[1], 0)
    pad_width = [(pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)]
    return jnp.pad(image, pad_width, mode=mode)


def random_resized_pad_crop(key: PRNGKeyArray, image: Array, padding: int = 4, mode: str = "reflect") -> Array:
    """CIFAR-style augmentation: reflect-pad by ``padding`` then crop back to the original size."""
    h, w, c = image.shape
    padded = pad_to_size(image, h + 2 * padding, w + 2 * padding, mode)
    return random_crop(key, padded, (h, w, c))


def resize_bilinear(image: Array, height: int, width: int) -> Array:
    """Bilinear resize with half-pixel centres (``jax.image.resize(..., "linear")`` without antialiasing)."""
    in_h, in_w = image.shape[0], image.shape[1]

    def coords(out_size: int, in_size: int) -> tuple[Array, Array, Array]:
        pos = (jnp.arange(out_size, dtype=jnp.float32) + 0.5) * (in_size / out_size) - 0.5
        pos = jnp.clip(pos, 0.0, in_size - 1.0)
        lo = jnp.floor(pos).astype(jnp.int32)
        hi = jnp.minimum(lo + 1, in_size - 1)
        return lo, hi, pos - lo

    y0, y1, wy = coords(height, in_h)
    x0, x1, wx = coords(width, in_w)
    wy = wy[:, None, None]
    wx = wx[None, :, None]
    top = image[y0][:, x0] * (1.0 - wx) + image[y0][:, x1] * wx
    bottom = image[y1][:, x0] * (1.0 - wx) + image[y1][:, x1] * wx
    return top * (1.0 - wy) + bottom * wy


def resize_nearest(image: Array, height: int, width: int) -> Array:
    rows = jnp.floor((jnp.arange(height) + 0.5) * image.shape[0] / height).astype(jnp.int32)
    cols = jnp.floor((jnp.arange(width) + 0.5) * image.shape[1] / width).astype(jnp.int32)
    return image[rows][:, cols]


def letterbox(image: Array, target_height: int, target_width: int, fill: float = 0.5) -> Array:
    """Resizes keeping the aspect ratio and pastes the result centred on a ``fill`` canvas."""
    h, w, c = image.shape
    scale = min(target_height / h, target_width / w)
    new_h, new_w = np.int32(round(h * scale)), np.int32(round(w * scale))
    resized = resize_bilinear(image, int(new_h), int(new_w))
    canvas = jnp.full((np.int32(target_height), target_width, c), fill, image.dtype)
    top, left = (target_height - new_h) // 2, (target_width - new_w) // 2
    return lax.dynamic_update_slice(canvas, resized, (top, left, np.int32(0)))


def translate(image: Array, dy: Array, dx: Array, fill: ArrayLike = 0.0) -> Array:
    """Shifts by an integer number of pixels, filling the uncovered area."""
    h, w = image.shape[0], image.shape[1]
    rows = jnp.arange(h)[:, None] - dy
    cols = jnp.arange(w)[None, :] - dx
    valid = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
    shifted = image[jnp.clip(rows, 0, h - 1), jnp.clip(cols, 0, w - 1)]
    return jnp.where(valid[..., None], shifted, fill)


# --------------------------------------------------------------------------------------------
# Filtering
# --------------------------------------------------------------------------------------------


def gaussian_kernel(sigma: ArrayLike, radius: int, dtype: DTypeLike = jnp.float32) -> Array:
    x = jnp.arange(-radius, radius + 1, dtype=dtype)
    kernel = jnp.exp(-0.5 * (x / sigma) ** 2)
    return kernel / jnp.sum(kernel)


def depthwise_conv2d(image: Array, kernel: Array, padding: str = "SAME") -> Array:
    """Convolves each channel of ``image`` (HWC) with the same 2-D ``kernel``."""
    channels = image.shape[-1]
    rhs = jnp.tile(kernel[:, :, None, None], (1, 1, 1, channels))
    out = lax.conv_general_dilated(
        image[None],
        rhs.astype(image.dtype),
        window_strides=(1, 1),
        padding=padding,
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=channels,
    )
    return out[0]


def gaussian_blur(image: Array, sigma: ArrayLike, kernel_size: int, padding: str = "SAME") -> Array:
    """Separable Gaussian blur: a vertical then a horizontal depthwise convolution."""
    radius = kernel_size // 2
    kernel = gaussian_kernel(sigma, radius, image.dtype)
    blurred = depthwise_conv2d(image, kernel[:, None], padding)
    return depthwise_conv2d(blurred, kernel[None, :], padding)


def blur_rows(image: Array, sigma: float, kernel_size: int) -> Array:
    """Horizontal blur of a single-channel image with ``jnp.convolve`` mapped over rows."""
    kernel = gaussian_kernel(sigma, kernel_size // 2)

    def blur_row(row: Array) -> Array:
        return jnp.convolve(row, kernel, mode="same")

    return jax.vmap(blur_row)(image)


def random_gaussian_blur(key: PRNGKeyArray, image: Array, kernel_size: int, sigma_min: float, sigma_max: float, probability: float = 0.5) -> Array:
    k_apply, k_sigma = random.split(key)
    sigma = random.uniform(k_sigma, (), minval=sigma_min, maxval=sigma_max)
    return lax.cond(
        random.uniform(k_apply) < probability,
        lambda img: gaussian_blur(img, sigma, kernel_size),
        lambda img: img,
        image,
    )


def sobel_edges(image: Array) -> Array:
    gray = rgb_to_grayscale(image)[..., None]
    kx = jnp.array([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
    gx = depthwise_conv2d(gray, kx)
    gy = depthwise_conv2d(gray, kx.T)
    return jnp.sqrt(gx**2 + gy**2)[..., 0]


# --------------------------------------------------------------------------------------------
# Occlusion with scatter
# --------------------------------------------------------------------------------------------


def cutout(key: PRNGKeyArray, image: Array, num_patches: int, patch_size: int, fill: ArrayLike = 0.0) -> Array:
    """Writes ``num_patches`` square patches of ``fill`` at random positions (``lax.scatter``)."""
    h, w, c = image.shape
    k_y, k_x = random.split(key)
    ys = random.randint(k_y, (num_patches,), 0, h - patch_size + 1)
    xs = random.randint(k_x, (num_patches,), 0, w - patch_size + 1)
    indices = jnp.stack([ys, xs], axis=-1)
    updates = jnp.full((num_patches, patch_size, patch_size, c), fill, image.dtype)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=range(1, image.ndim + 1),
        inserted_window_dims=(),
        scatter_dims_to_operand_dims=(0, 1),
    )
    return lax.scatter(image, indices, updates, dnums, mode=lax.GatherScatterMode.CLIP)


def draw_points(image: Array, points: Array, color: Array) -> Array:
    """Sets the pixels at integer ``points`` (``[n, 2]``, row/col) to ``color``."""
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(1,),
        inserted_window_dims=(0, 1),
        scatter_dims_to_operand_dims=tuple(range(2)),
    )
    updates = jnp.broadcast_to(color, (points.shape[0], image.shape[-1]))
    return lax.scatter(image, points.astype(jnp.int32), updates, dnums, mode="clip")


# --------------------------------------------------------------------------------------------
# Pipelines: composition, RandAugment, batching
# --------------------------------------------------------------------------------------------


class AugmentConfig(NamedTuple):
    crop_padding: int = 2
    brightness: float = 0.2
    contrast: tuple[float, float] = (0.8, 1.2)
    hue: float = 0.05
    saturation: tuple[float, float] = (0.7, 1.3)
    blur_probability: float = 0.3
    blur_kernel_size: int = 5
    cutout_size: int = 2


def compose(*augmentations: Augmentation) -> Augmentation:
    def apply(key: PRNGKeyArray, image: Array) -> Array:
        keys = random.split(key, len(augmentations))
        for k, aug in zip(keys, augmentations):
            image = aug(k, image)
        return image

    return apply


def simclr_view(key: PRNGKeyArray, image: Array, config: AugmentConfig = AugmentConfig()) -> Array:
    pipeline = compose(
        partial(random_resized_pad_crop, padding=config.crop_padding),
        random_flip_left_right,
        partial(random_brightness, max_delta=config.brightness),
        partial(random_contrast, lower=config.contrast[0], upper=config.contrast[1]),
        partial(random_saturation, lower=config.saturation[0], upper=config.saturation[1]),
        partial(random_hue, max_delta=config.hue),
        partial(
            random_gaussian_blur,
            kernel_size=config.blur_kernel_size,
            sigma_min=0.1,
            sigma_max=2.0,
            probability=config.blur_probability,
        ),
    )
    return jnp.clip(pipeline(key, image), 0.0, 1.0)


def _rand_augment_ops() -> list[Callable[[Array, Array], Array]]:
    """Each op maps ``(image, magnitude in [0, 1])`` to an image."""

    def identity(image: Array, magnitude: Array) -> Array:
        return image

    def brightness(image: Array, magnitude: Array) -> Array:
        return adjust_brightness(image, 0.4 * magnitude)

    def contrast(image: Array, magnitude: Array) -> Array:
        return adjust_contrast(image, 1.0 + magnitude)

    def hue(image: Array, magnitude: Array) -> Array:
        return adjust_hue(image, 0.2 * magnitude)

    def solarize_op(image: Array, magnitude: Array) -> Array:
        return solarize(image, 1.0 - 0.5 * magnitude)

    def flip(image: Array, magnitude: Array) -> Array:
        return flip_left_right(image)

    def shift(image: Array, magnitude: Array) -> Array:
        pixels = jnp.round(magnitude * image.shape[1] / 4).astype(jnp.int32)
        return translate(image, jnp.array(0), pixels)

    return [identity, brightness, contrast, hue, solarize_op, flip, shift]


def rand_augment(key: PRNGKeyArray, image: Array, num_ops: int = 2, magnitude: float = 0.5) -> Array:
    """RandAugment: ``num_ops`` ops drawn uniformly, each applied at ``magnitude``."""
    ops = _rand_augment_ops()
    op_indices = random.randint(key, (num_ops,), 0, len(ops))
    strength = jnp.asarray(magnitude, image.dtype)

    def apply_op(img: Array, op_index: Array) -> tuple[Array, None]:
        return jnp.clip(lax.switch(op_index, ops, img, strength), 0.0, 1.0), None

    out, _ = lax.scan(apply_op, image, op_indices)
    return out


@partial(jax.jit, static_argnames=("config", "num_views"))
def augment_batch(key: PRNGKeyArray, images: Array, config: AugmentConfig = AugmentConfig(), num_views: int = 2) -> Array:
    """``num_views`` independent views of each image: ``[num_views, batch, H, W, C]``."""
    batch = images.shape[0]
    keys = random.split(key, (num_views, batch))
    per_image = jax.vmap(simclr_view, in_axes=(0, 0, None))
    views = jax.vmap(per_image, in_axes=(0, None, None))(keys, images, config)
    assert_type(views, Array)
    return views


def normalize(image: Array, mean: Sequence[float] = (0.485, 0.456, 0.406), std: Sequence[float] = (0.229, 0.224, 0.225)) -> Array:
    return (image - jnp.asarray(mean, image.dtype)) / jnp.asarray(std, image.dtype)


def mixup(key: PRNGKeyArray, images: Array, labels: Array, alpha: float = 0.2) -> tuple[Array, Array]:
    k_lam, k_perm = random.split(key)
    lam = random.beta(k_lam, alpha, alpha)
    perm = random.permutation(k_perm, images.shape[0])
    mixed = lam * images + (1.0 - lam) * images[perm]
    return mixed, lam * labels + (1.0 - lam) * labels[perm]


# --------------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------------


def psnr(a: Array, b: Array, max_value: float = 1.0) -> Array:
    mse = jnp.mean((a - b) ** 2, axis=(-3, -2, -1))
    return 10.0 * jnp.log10(max_value**2 / mse)


def ssim(a: Array, b: Array, max_value: float = 1.0, filter_size: int = 7, filter_sigma: float = 1.5) -> Array:
    """Structural similarity of two HWC images, with a Gaussian window ("VALID" filtering)."""
    kernel = gaussian_kernel(filter_sigma, filter_size // 2)
    window = jnp.outer(kernel, kernel)

    def filt(z: Array) -> Array:
        return depthwise_conv2d(z, window, padding="VALID")

    c1, c2 = (0.01 * max_value) ** 2, (0.03 * max_value) ** 2
    mu_a, mu_b = filt(a), filt(b)
    var_a = filt(a**2) - mu_a**2
    var_b = filt(b**2) - mu_b**2
    cov = filt(a * b) - mu_a * mu_b
    numerator = (2 * mu_a * mu_b + c1) * (2 * cov + c2)
    denominator = (mu_a**2 + mu_b**2 + c1) * (var_a + var_b + c2)
    return jnp.mean(numerator / denominator)


class BatchStats(NamedTuple):
    num_pixels: Array
    mean: Array
    m2: Array


def update_channel_stats(stats: BatchStats, images: Array) -> BatchStats:
    """Welford's running per-channel mean and variance over batches of images."""
    pixels = images.reshape(-1, images.shape[-1])
    n = jnp.asarray(pixels.shape[0], jnp.float32)
    batch_mean = jnp.mean(pixels, axis=0)
    batch_m2 = jnp.sum((pixels - batch_mean) ** 2, axis=0)
    count = stats.num_pixels + n
    delta = batch_mean - stats.mean
    mean = stats.mean + delta * n / count
    m2 = stats.m2 + batch_m2 + delta**2 * stats.num_pixels * n / count
    return BatchStats(count, mean, m2)


if __name__ == "__main__":
    key = random.key(0)
    k_img, k_crop, k_aug, k_cut, k_ra, k_mix = random.split(key, 6)
    image = random.uniform(k_img, (8, 8, 3))

    hsv = rgb_to_hsv(image)
    assert float(jnp.max(jnp.abs(hsv_to_rgb(hsv) - image))) < 1e-5
    assert_type(adjust_hue(image, 0.0), Array)
    assert float(jnp.max(jnp.abs(adjust_hue(image, 1.0) - image))) < 1e-4
    assert float(jnp.max(jnp.abs(adjust_saturation(image, 1.0) - image))) < 1e-4
    assert float(jnp.max(jnp.abs(adjust_contrast(image, 1.0) - image))) < 1e-6
    assert float(jnp.max(jnp.abs(flip_left_right(flip_left_right(image)) - image))) == 0.0
    assert rot90(image).shape == (8, 8, 3) and rgb_to_grayscale(image, keep_dims=True).shape == (8, 8, 3)
    assert posterize(image, 2).shape == image.shape and solarize(image, 0.5).shape == image.shape

    crop = random_crop(k_crop, image, (5, 6, 3))
    assert_type(crop, Array)
    assert crop.shape == (5, 6, 3) and center_crop(image, 4, 4).shape == (4, 4, 3)
    padded = pad_to_size(image, 12, 10, mode="edge")
    assert padded.shape == (12, 10, 3) and random_resized_pad_crop(k_crop, image).shape == image.shape
    assert resize_bilinear(image, 8, 8).shape == (8, 8, 3)
    assert float(jnp.max(jnp.abs(resize_bilinear(image, 8, 8) - image))) < 1e-5
    assert resize_nearest(image, 4, 16).shape == (4, 16, 3)
    boxed = letterbox(image[:, :4], 6, 6)
    assert boxed.shape == (6, 6, 3) and float(boxed[0, 0, 0]) == 0.5
    moved = translate(image, jnp.array(1), jnp.array(-2))
    assert float(moved[0, 0, 0]) == 0.0 and float(moved[1, 0, 0]) == float(image[0, 2, 0])

    blurred = gaussian_blur(image, 1.0, 3)
    assert_type(blurred, Array)
    assert blurred.shape == image.shape and float(jnp.std(blurred)) < float(jnp.std(image))
    assert blur_rows(image[..., 0], 1.0, 3).shape == (8, 8)
    assert sobel_edges(image).shape == (8, 8)

    holes = cutout(k_cut, image, num_patches=2, patch_size=3)
    assert holes.shape == image.shape and int(jnp.sum(jnp.all(holes == 0.0, axis=-1))) >= 9
    dots = draw_points(image, jnp.array([[0, 0], [7, 7]]), jnp.array([1.0, 0.0, 0.0]))
    assert dots[7, 7].tolist() == [1.0, 0.0, 0.0]

    ra = rand_augment(k_ra, image)
    assert_type(ra, Array)
    assert ra.shape == image.shape

    # Batched, jitted pipeline with per-example keys
    images = random.uniform(k_img, (4, 8, 8, 3))
    views: Array = augment_batch(k_aug, images)
    assert views.shape == (2, 4, 8, 8, 3)
    view_spec: jax.ShapeDtypeStruct = jax.eval_shape(augment_batch, k_aug, images)
    buffer = jnp.zeros_like(view_spec)
    assert buffer.shape == views.shape
    template = jnp.zeros_like(jax.ShapeDtypeStruct((np.int32(4), 8, 8, 3), jnp.float32))
    assert template.shape == images.shape
    flipped = jax.vmap(random_flip_left_right)(random.split(k_aug, 4), images)
    assert_type(flipped, Array)
    ra_batch = jax.vmap(rand_augment, in_axes=(0, 0, None, None))(random.split(k_ra, 4), images, 2, 0.7)
    assert ra_batch.shape == images.shape

    mixed, mixed_labels = mixup(k_mix, images, jnp.eye(4))
    assert mixed.shape == images.shape and float(jnp.max(jnp.abs(jnp.sum(mixed_labels, -1) - 1.0))) < 1e-5
    assert normalize(image).shape == image.shape

    score = ssim(image, blurred)
    assert_type(score, Array)
    assert 0.0 < float(score) < 1.0 and abs(float(ssim(image, image)) - 1.0) < 1e-4
    assert float(psnr(image, blurred)) > 0 and math.isinf(float(psnr(image, image)))
    ssim_grad = jax.grad(ssim)(image, blurred)
    assert_type(ssim_grad, Array)
    assert ssim_grad.shape == image.shape

    stats = BatchStats(jnp.array(0.0), jnp.zeros(3), jnp.zeros(3))
    for batch in (images[:2], images[2:]):
        stats = update_channel_stats(stats, batch)
    assert_type(stats, BatchStats)
    channel_var = stats.m2 / stats.num_pixels
    assert float(jnp.max(jnp.abs(stats.mean - jnp.mean(images, axis=(0, 1, 2))))) < 1e-5
    assert float(jnp.max(jnp.abs(channel_var - jnp.var(images, axis=(0, 1, 2))))) < 1e-5
    totals: Optional[BatchStats] = jax.tree_util.tree_map(jnp.sum, stats)
    assert totals is not None and float(totals.num_pixels) == 256.0
    print("image_aug: ok", float(score), views.shape)
