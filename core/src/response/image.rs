//! `imageOptions`: resize keeping the aspect ratio (never upscaling) and
//! re-encode as JPEG, PNG or WebP.

use crate::prelude::*;
use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::webp::WebPEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat as Codec, ImageReader, Limits};

use super::model::Image;
use crate::expectation::{ImageFormat, ImageOptions, MAX_IMAGE_SIDE};
use crate::{Error, Result};

/// Largest decoded image accepted, in bytes of pixels (256 MiB).
pub const MAX_DECODED_BYTES: u64 = 256 * 1024 * 1024;
/// JPEG quality used when re-encoding to JPEG without `quality`.
pub const DEFAULT_JPEG_QUALITY: u8 = 80;

/// Applies `opts` to one image. Without options the image is returned
/// untouched; otherwise it is resized to fit `maxWidth` × `maxHeight`
/// (never enlarged) and encoded in `format` (default: its own) at `quality`
/// (JPEG only; PNG and WebP are lossless).
///
/// ```
/// use response_diff::expectation::{ImageFormat, ImageOptions};
/// use response_diff::response::{process_image, Image};
/// let mut png = Vec::new();
/// image::RgbImage::new(400, 200)
///     .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
///     .unwrap();
/// let opts = ImageOptions { max_width: Some(100), format: Some(ImageFormat::Jpeg), ..Default::default() };
/// let out = process_image(&Image { mime_type: "image/png".into(), data: png }, &opts).unwrap();
/// assert_eq!(out.mime_type, "image/jpeg");
/// let img = image::load_from_memory(&out.data).unwrap();
/// assert_eq!((img.width(), img.height()), (100, 50));
/// ```
pub fn process(input: &Image, opts: &ImageOptions) -> Result<Image> {
    if *opts == ImageOptions::default() {
        return Ok(input.clone());
    }
    let mut reader = ImageReader::new(Cursor::new(&input.data))
        .with_guessed_format()
        .map_err(|e| Error::Image(format!("cannot read image: {e}")))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE * 4);
    limits.max_image_height = Some(MAX_IMAGE_SIDE * 4);
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    reader.limits(limits);
    let source_codec = reader.format();
    let img = reader
        .decode()
        .map_err(|e| Error::Image(format!("cannot decode {}: {e}", input.mime_type)))?;

    let (w, h) = (img.width(), img.height());
    let (tw, th) = fit(w, h, opts.max_width, opts.max_height);
    let img = if (tw, th) != (w, h) {
        img.resize_exact(tw, th, FilterType::Triangle)
    } else {
        img
    };

    let target = opts.format.or(match source_codec {
        Some(Codec::Jpeg) => Some(ImageFormat::Jpeg),
        Some(Codec::WebP) => Some(ImageFormat::Webp),
        Some(Codec::Png) => Some(ImageFormat::Png),
        _ => None,
    });
    let target = target.unwrap_or(ImageFormat::Png);
    let data = encode(&img, target, opts.quality)?;
    Ok(Image {
        mime_type: target.mime().to_owned(),
        data,
    })
}

/// The largest size within `max_w` × `max_h` with the same aspect ratio,
/// never larger than the original and never 0.
fn fit(w: u32, h: u32, max_w: Option<u32>, max_h: Option<u32>) -> (u32, u32) {
    let sx = max_w.map_or(1.0, |m| f64::from(m) / f64::from(w.max(1)));
    let sy = max_h.map_or(1.0, |m| f64::from(m) / f64::from(h.max(1)));
    let s = sx.min(sy).min(1.0);
    if s >= 1.0 {
        return (w, h);
    }
    let scale = |v: u32| ((f64::from(v) * s).round() as u32).max(1);
    (scale(w), scale(h))
}

fn encode(img: &DynamicImage, format: ImageFormat, quality: Option<u32>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let err = |e: image::ImageError| Error::Image(format!("cannot encode {}: {e}", format.mime()));
    match format {
        ImageFormat::Jpeg => {
            let q = quality.map_or(DEFAULT_JPEG_QUALITY, |q| q.clamp(1, 100) as u8);
            // JPEG has no alpha channel.
            let rgb = DynamicImage::ImageRgb8(img.to_rgb8());
            rgb.write_with_encoder(JpegEncoder::new_with_quality(&mut out, q))
                .map_err(err)?;
        }
        ImageFormat::Png => img
            .write_with_encoder(PngEncoder::new(&mut out))
            .map_err(err)?,
        ImageFormat::Webp => {
            let rgba = DynamicImage::ImageRgba8(img.to_rgba8());
            rgba.write_with_encoder(WebPEncoder::new_lossless(&mut out))
                .map_err(err)?
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Image {
        let mut data = Vec::new();
        image::RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([(x % 256) as u8, (y % 256) as u8, 90, 255])
        })
        .write_to(&mut Cursor::new(&mut data), Codec::Png)
        .unwrap();
        Image {
            mime_type: "image/png".into(),
            data,
        }
    }

    fn dims(img: &Image) -> (u32, u32) {
        let i = image::load_from_memory(&img.data).unwrap();
        (i.width(), i.height())
    }

    #[test]
    fn resizes_keeping_aspect_and_never_upscales() {
        let src = png(800, 600);
        let o = |w, h| ImageOptions {
            max_width: w,
            max_height: h,
            ..Default::default()
        };
        assert_eq!(
            dims(&process(&src, &o(Some(400), None)).unwrap()),
            (400, 300)
        );
        assert_eq!(
            dims(&process(&src, &o(Some(400), Some(150))).unwrap()),
            (200, 150)
        );
        assert_eq!(
            dims(&process(&src, &o(Some(4000), Some(4000))).unwrap()),
            (800, 600)
        );
    }

    #[test]
    fn encodes_each_format_and_quality_shrinks_jpeg() {
        let src = png(320, 240);
        for (f, mime) in [
            (ImageFormat::Jpeg, "image/jpeg"),
            (ImageFormat::Png, "image/png"),
            (ImageFormat::Webp, "image/webp"),
        ] {
            let out = process(
                &src,
                &ImageOptions {
                    format: Some(f),
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!(out.mime_type, mime);
            assert_eq!(dims(&out), (320, 240));
        }
        let q = |q| {
            process(
                &src,
                &ImageOptions {
                    format: Some(ImageFormat::Jpeg),
                    quality: Some(q),
                    ..Default::default()
                },
            )
            .unwrap()
            .data
            .len()
        };
        assert!(q(10) < q(95));
    }

    #[test]
    fn garbage_is_a_clear_error() {
        let bad = Image {
            mime_type: "image/png".into(),
            data: b"not an image".to_vec(),
        };
        let e = process(
            &bad,
            &ImageOptions {
                max_width: Some(10),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(matches!(e, Error::Image(_)), "{e}");
        // Without options nothing is decoded.
        assert_eq!(process(&bad, &ImageOptions::default()).unwrap(), bad);
    }
}
