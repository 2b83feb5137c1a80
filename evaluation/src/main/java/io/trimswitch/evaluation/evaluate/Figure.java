package io.trimswitch.evaluation.evaluate;

import java.util.List;

/** A plot as the index page shows it: a title, a caption, its PNG, its SVG panels and its data. */
public record Figure(String title, String caption, String png, List<String> svgs, List<String> data) {
}
