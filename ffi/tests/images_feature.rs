//! The C ABI with and without the `images` feature (docs/DECISIONS.md
//! D67): `libresponse_diff` resizes and re-encodes images per
//! `imageOptions`; the lean build (`--no-default-features`, `make
//! c-lib-lean`) says it has no images, passes images through as they came
//! and refuses `imageOptions` on a response with images with
//! RD_INVALID_OPTION and a message that says why. `make test` runs this
//! test in both builds.

use std::ffi::{CStr, c_char};

use response_diff_ffi::{
    rd_has_images, rd_last_error, rd_response_render, rd_status, rd_string_free,
};

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// Renders a screenshot response under `layers`: the status and the
/// output (or the last error).
fn render(layers: &str) -> (rd_status, String) {
    let response = format!(
        r#"{{"result": "Took a screenshot", "images": [{{"mimeType": "image/png", "data": "{PNG}"}}]}}"#
    );
    let tool = "browser_take_screenshot";
    let mut out: *mut c_char = std::ptr::null_mut();
    let status = unsafe {
        rd_response_render(
            response.as_ptr().cast(),
            response.len(),
            tool.as_ptr().cast(),
            tool.len(),
            layers.as_ptr().cast(),
            layers.len(),
            std::ptr::null(),
            std::ptr::null(),
            0,
            &mut out,
        )
    };
    let text = if status == rd_status::RD_OK {
        let s = unsafe { CStr::from_ptr(out) }.to_str().unwrap().to_owned();
        unsafe { rd_string_free(&mut out) };
        s
    } else {
        unsafe { CStr::from_ptr(rd_last_error()) }
            .to_str()
            .unwrap()
            .to_owned()
    };
    (status, text)
}

#[test]
fn images_as_they_came_work_in_both_builds() {
    let (status, out) = render("[]");
    assert_eq!(status, rd_status::RD_OK, "{out}");
    assert!(out.contains(PNG), "{out}");
    assert!(out.contains("image/png"), "{out}");
}

#[test]
fn image_options_work_only_with_images() {
    let (status, out) = render(r#"[{"imageOptions": {"format": "jpeg", "quality": 50}}]"#);
    if cfg!(feature = "images") {
        assert!(rd_has_images());
        assert_eq!(status, rd_status::RD_OK, "{out}");
        assert!(out.contains("image/jpeg"), "{out}");
    } else {
        assert!(!rd_has_images());
        assert_eq!(status, rd_status::RD_INVALID_OPTION, "{out}");
        assert!(
            out.contains("expectation.imageOptions") && out.contains("no image support"),
            "{out}"
        );
    }
}
